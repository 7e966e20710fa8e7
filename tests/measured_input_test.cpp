// Users' own measurements in: the gpucast CSV and JSON formats and Nsight Compute's details export
// (units, locales), read into one kernel list; errors name file, line and column or key.
#include <catch2/catch.hpp>

#include "calibration/measured_input.h"
#include "reports/json.h"
#include "support/cli_runner.h"

using namespace gpucast;
using calib::parse_localized_number;
using calib::read_measured;
using calib::read_measured_text;

namespace {
const std::string kData = std::string(GPUCAST_SOURCE_DIR) + "/tests/data/measured/";
}

SCENARIO("Numbers read in either locale, with or without thousands separators") {
  CHECK(*parse_localized_number("181.66") == Approx(181.66));
  CHECK(*parse_localized_number("181,66") == Approx(181.66));
  CHECK(*parse_localized_number("318,012") == Approx(318012));
  CHECK(*parse_localized_number("1,234,567") == Approx(1234567));
  CHECK(*parse_localized_number("67,109.50") == Approx(67109.5));
  CHECK(*parse_localized_number("67.109,50") == Approx(67109.5));
  CHECK(*parse_localized_number("1 234,5") == Approx(1234.5));
  CHECK_FALSE(parse_localized_number("n/a"));
  CHECK_FALSE(parse_localized_number(""));
  CHECK(*calib::time_unit_to_us("msecond") == Approx(1000));
  CHECK(*calib::time_unit_to_us("nsecond") == Approx(0.001));
  CHECK(*calib::byte_unit_to_bytes("Kbyte") == Approx(1000));
  CHECK_FALSE(calib::byte_unit_to_bytes("furlong"));
}

SCENARIO("The gpucast CSV and JSON formats give the same kernels") {
  const auto csv = read_measured(kData + "kernels.csv");
  const auto json = read_measured(kData + "kernels.json");
  REQUIRE(csv.kernels.size() == 4);
  REQUIRE(json.kernels.size() == 4);
  CHECK(csv.format == calib::MeasuredFormat::gpucast_csv);
  CHECK(json.format == calib::MeasuredFormat::gpucast_json);
  for (size_t i = 0; i < 4; ++i) {
    CHECK(csv.kernels[i].name == json.kernels[i].name);
    CHECK(csv.kernels[i].op == json.kernels[i].op);
    CHECK(csv.kernels[i].measured_us == Approx(json.kernels[i].measured_us));
    CHECK(csv.kernels[i].params.size() == json.kernels[i].params.size());
  }
  CHECK(json.kernels[2].measured_us == Approx(28.1));  // measured_ms
  CHECK(std::get<std::int64_t>(csv.kernels[0].params.at("m").value) == 4096);
}

SCENARIO("An Nsight Compute details export gives one kernel per ID, in microseconds and bytes") {
  for (const char* file : {"ncu-details.csv", "ncu-details-de.csv"}) {
    WHEN(file) {
      const auto f = read_measured(kData + file);
      CHECK(f.format == calib::MeasuredFormat::ncu_csv);
      REQUIRE(f.kernels.size() == 3);
      CHECK(f.kernels[0].measured_us == Approx(181.66));
      CHECK(f.kernels[0].grid == "(132, 1, 1)");
      CHECK(*f.kernels[0].dram_bytes == Approx(103.81e6));
      CHECK(*f.kernels[0].sm_throughput_pct == Approx(78.31));
      CHECK(*f.kernels[1].dram_bytes == Approx(134.23e6 + 67109.5e3));  // read + write, Mbyte and Kbyte
      CHECK(f.kernels[2].measured_us == Approx(130));                   // msecond
      CHECK(*f.kernels[2].dram_bytes == Approx(2.24e12 * 130e-6));      // throughput x duration
    }
  }
}

SCENARIO("Malformed measurements name the file, the line and the column") {
  CHECK_THROWS_WITH(read_measured_text("name,op,m,n,k,measured_us\ng,gemm,64,64,64,fast\n", "m.csv"),
                    Catch::Contains("m.csv:2") && Catch::Contains("measured_us"));
  CHECK_THROWS_WITH(read_measured_text("op,measured_us\ngemmm,5\n", "m.csv"),
                    Catch::Contains("unknown op 'gemmm'"));
  CHECK_THROWS_WITH(read_measured_text("op,measured_us\nelementwise,-3\n", "m.csv"),
                    Catch::Contains("positive"));
  CHECK_THROWS_WITH(read_measured_text("op,time\ngemm,5\n", "m.csv"), Catch::Contains("measured_us"));
  // An integer parameter written as a fraction is an error at its cell, not rounded.
  CHECK_THROWS_WITH(read_measured_text("name,op,m,n,k,measured_us\ng,gemm,64.5,64,64,5\n", "m.csv"),
                    Catch::Contains("m.csv:2:3") && Catch::Contains("expected an integer"));
  CHECK_THROWS_WITH(read_measured_text("{\"kernels\": [{\"op\": \"gemm\"}]}", "m.json"),
                    Catch::Contains("m.json kernels[0]") && Catch::Contains("measured_us"));
  const std::string head = "\"ID\",\"Kernel Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n";
  CHECK_THROWS_WITH(read_measured_text(head + "\"0\",\"k\",\"Duration\",\"fortnight\",\"3\"\n", "n.csv"),
                    Catch::Contains("n.csv:2") && Catch::Contains("fortnight"));
  CHECK_THROWS_WITH(read_measured_text(head + "\"0\",\"k\",\"DRAM Throughput\",\"%\",\"5\"\n", "n.csv"),
                    Catch::Contains("no Duration"));
}

SCENARIO("validate --measured puts measured beside predicted, with speed-of-light figures") {
  WHEN("the gpucast CSV") {
    const auto r = test::run_gpucast(
        {"validate", "--gpu", "h100-sxm", "--measured", kData + "kernels.csv", "--format", "json"});
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    const auto doc = reports::Json::parse(r.out, "stdout");
    const auto& cases = doc.at("cases").as_array();
    REQUIRE(cases.size() == 4);
    const auto& gemm = cases[0];
    CHECK(gemm.at("measured_us").as_number() == Approx(183.84));
    CHECK(gemm.at("predicted_us").as_number() > 0);
    const auto& sol = gemm.at("measured_sol");
    CHECK(sol.at("pipe").as_string() == "tensor bf16");
    // 2 x 4096^3 FLOPs in 183.84 us = 748 TFLOP/s, over the H100 SXM's 989 dense bf16 peak.
    CHECK(sol.at("achieved_tflops").as_number() ==
          Approx(2.0 * 4096 * 4096 * 4096 / 183.84e-6 * 1e-12).epsilon(1e-6));
    CHECK(sol.at("compute_pct").as_number() ==
          Approx(100 * sol.at("achieved_tflops").as_number() / sol.at("peak_tflops").as_number()));
    CHECK(cases[1].at("measured_sol").at("pipe").as_string() == "fp32");
  }
  WHEN("an Nsight Compute export, paired with its workload") {
    const auto r =
        test::run_gpucast({"validate", "--gpu", "h100-sxm", "--measured", kData + "ncu-details.csv",
                           "--workload", kData + "ncu-workload.toml", "--format", "json"});
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    const auto doc = reports::Json::parse(r.out, "stdout");
    const auto& add = doc.at("cases").as_array().at(1);
    CHECK(add.at("id").as_string() == "add_fp32");
    CHECK(add.at("ncu_memory_pct").as_number() == Approx(89.4));
    // Measured DRAM bytes over the measured duration, against the DRAM peak.
    CHECK(add.at("measured_sol").at("achieved_gbps").as_number() ==
          Approx((134.23e6 + 67109.5e3) / 71.2e-6 * 1e-9));
  }
  WHEN("an Nsight Compute export without a workload") {
    const auto r =
        test::run_gpucast({"validate", "--gpu", "h100-sxm", "--measured", kData + "ncu-details.csv"});
    CHECK(r.exit_code != 0);
    CHECK_THAT(r.err, Catch::Contains("--workload"));
  }
}

SCENARIO(
    "A GEMM's layout=XY variant sets transpose_a/transpose_b; a layout that is not n/t names "
    "the variant") {
  const std::string one =
      R"({"kernels": [{"op": "gemm", "variant": "layout=tn", "measured_us": 10,
          "params": {"m": 50257, "n": 768, "k": 8192, "dtype": "bf16"}}]})";
  const auto file = read_measured_text(one, "m.json");
  REQUIRE(file.kernels.size() == 1);
  const auto& p = file.kernels[0].params;
  CHECK(std::get<bool>(p.at("transpose_a").value));
  CHECK_FALSE(std::get<bool>(p.at("transpose_b").value));
  const std::string csv = "op,m,n,k,dtype,variant,measured_us\ngemm,8192,50257,768,bf16,layout=nt,6565\n";
  const auto rows = read_measured_text(csv, "m.csv");
  REQUIRE(rows.kernels.size() == 1);
  CHECK(std::get<bool>(rows.kernels[0].params.at("transpose_b").value));
  std::string bad = one;
  bad.replace(bad.find("layout=tn"), 9, "layout=tx");
  try {
    (void)read_measured_text(bad, "m.json");
    FAIL("expected an InputError");
  } catch (const InputError& e) {
    CHECK(e.key() == "variant");
  }
}
