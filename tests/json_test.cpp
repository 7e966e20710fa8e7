#include <catch2/catch.hpp>

#include "reports/json.h"

using gpucast::reports::Json;

SCENARIO("JSON round-trips objects in insertion order") {
  Json doc = Json::object();
  doc.set("b", 1);
  doc.set("a", Json::array());
  doc.set("text", "q\"uote\n");
  doc.set("x", 2.5);
  const auto text = doc.dump(-1);
  CHECK(text == R"({"b":1,"a":[],"text":"q\"uote\n","x":2.5})");
  const auto back = Json::parse(text, "test");
  CHECK(back.at("b").as_integer() == 1);
  CHECK(back.at("x").as_number() == Approx(2.5));
  CHECK(back.at("text").as_string() == "q\"uote\n");
}

SCENARIO("JSON syntax errors name the line and column") {
  // The column is where the reader stopped: the newline after the broken literal.
  CHECK_THROWS_WITH(Json::parse("{\n  \"a\": tru\n}", "m.json"), Catch::Contains("m.json:2:11"));
  CHECK_THROWS_WITH(Json::parse("{\"a\": 1,\n \"b\": 2\n \"c\": 3}", "m.json"),
                    Catch::Contains("m.json:3:4") && Catch::Contains("JSON syntax error"));
  CHECK_THROWS_WITH(Json::parse("[1, 2", "m.json"), Catch::Contains("m.json:1:"));
}

SCENARIO("JSON keeps integers exact and prints other numbers to ten significant digits") {
  const auto doc = Json::parse(R"({"big": 9007199254740993, "x": 4.447969697, "u": "\u00e9"})", "t");
  CHECK(doc.at("big").is_integer());
  CHECK(doc.at("big").as_integer() == 9007199254740993LL);
  CHECK(doc.dump(-1) == "{\"big\":9007199254740993,\"x\":4.447969697,\"u\":\"\xc3\xa9\"}");
  Json n = Json::object();
  n.set("whole", 6522903909.0);
  n.set("third", 1.0 / 3.0);
  CHECK(n.dump(-1) == R"({"whole":6522903909,"third":0.3333333333})");
}
