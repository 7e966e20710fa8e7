// Validation report numbers: errors, MAPE per family and split, worst cases.
#include <catch2/catch.hpp>

#include "calibration/validation_report.h"
#include "hardware/catalog.h"
#include "sim/op_predictor.h"
#include "support/temp_dir.h"

using namespace gpucast;

SCENARIO("summaries compute MAPE, median, bias and the share within 10%") {
  const auto s = calib::summarize({0.1, -0.2, 0.05, -0.05});
  CHECK(s.count == 4);
  CHECK(s.mape == Approx(0.1));
  CHECK(s.median_ape == Approx(0.075));
  CHECK(s.bias == Approx(-0.025));
  CHECK(s.within_10 == Approx(0.75));
}

SCENARIO("an offline validation reports each case's error against its measurement") {
  const auto gpu = hw::Catalog(test::source_dir() / "hardware").load("h100-sxm");
  // Measurements made to be 10% above and 20% below what the model predicts.
  sim::OpPredictor p(gpu);
  wl::GemmOp g{1024, 1024, 1024, 1, DataType::bf16, DataType::bf16};
  wl::RowOp r{wl::RowOpKind::softmax, 4096, 4096, DataType::fp32};
  const double pg = p.predict(g).duration_us;
  const double pr = p.predict(r).duration_us;
  const std::string doc = R"({"format": "gpucast-validation/1", "environment": {"gpu": "Test"}, "cases": [
    {"id": "gemm-1", "family": "gemm", "set": "test", "op": "gemm", "params": {"m": 1024, "n": 1024, "k": 1024, "dtype": "bf16"},
     "measured_us": )" + std::to_string(pg / 1.1) + R"(},
    {"id": "softmax-1", "family": "softmax", "set": "dev", "op": "softmax", "params": {"rows": 4096, "cols": 4096, "dtype": "fp32"},
     "measured_us": )" + std::to_string(pr / 0.8) + R"(},
    {"id": "broken-1", "family": "gemm", "set": "test", "op": "gemm", "params": {"m": 8}, "measured_us": 5.0},
    {"id": "failed-1", "family": "gemm", "set": "test", "op": "gemm", "params": {}, "error": "OOM"}]})";
  test::TempDir dir;
  const auto path = dir.write("m.json", doc);
  const auto report = calib::validate_offline(path.string(), gpu);
  REQUIRE(report.cases.size() == 2);
  CHECK(report.skipped.size() == 2);
  CHECK(report.cases[0].error() == Approx(0.1).epsilon(1e-4));
  CHECK(report.cases[1].error() == Approx(-0.2).epsilon(1e-4));
  CHECK(report.stats.at("overall").at("all").mape == Approx(0.15).epsilon(1e-4));
  CHECK(report.stats.at("gemm").at("test").count == 1);
  CHECK(report.stats.at("softmax").count("test") == 0);
  CHECK(report.worst(1).front()->id == "softmax-1");
  WHEN("only the test split is asked for") {
    const auto test_only = calib::validate_offline(path.string(), gpu, "test");
    CHECK(test_only.cases.size() == 1);
  }
}

SCENARIO("a file that is not a measurement file is refused") {
  test::TempDir dir;
  const auto path = dir.write("x.json", R"({"format": "something-else"})");
  const auto gpu = hw::Catalog(test::source_dir() / "hardware").load("h100-sxm");
  CHECK_THROWS_WITH(calib::validate_offline(path.string(), gpu), Catch::Contains("not a gpucast validation"));
}
