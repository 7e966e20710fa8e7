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
  CHECK_THROWS_WITH(Json::parse("{\n  \"a\": tru\n}", "m.json"), Catch::Contains("m.json:2:8"));
}
