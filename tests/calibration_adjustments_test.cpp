// Hand-set values in a calibrated profile (calibration/adjustments.h): each replaces one fitted
// value with its evidence, and a bad adjustments file names its line and key.
#include <catch2/catch.hpp>

#include "calibration/adjustments.h"
#include "support/temp_dir.h"

using gpucast::InputError;
using gpucast::calib::apply_adjustments;
using gpucast::calib::CalibrationResult;
using gpucast::calib::read_adjustments;

namespace {

CalibrationResult fitted_queued_kernel() {
  CalibrationResult r;
  r.values.push_back({"launch.queued_kernel_us", 1.33, "slope of queued empty kernels"});
  return r;
}

std::string error_of(const std::string& text) {
  const gpucast::test::TempDir tmp;
  const auto file = tmp.write("gpu.adjust.toml", text);
  try {
    auto r = fitted_queued_kernel();
    apply_adjustments(r, read_adjustments(file));
  } catch (const InputError& e) {
    return e.where().str().substr(e.where().file.size()) + " " + e.key() + ": " + e.detail();
  }
  return "no error";
}

}  // namespace

SCENARIO("an adjustment replaces a fitted value and records its evidence") {
  const gpucast::test::TempDir tmp;
  const auto file = tmp.write("h200.adjust.toml",
                              "[\"launch.queued_kernel_us\"]\nvalue = 1.74\nhow = \"hand-set\"\n"
                              "source = \"the validation runs\"\n");
  auto r = fitted_queued_kernel();
  apply_adjustments(r, read_adjustments(file));
  REQUIRE(r.value("launch.queued_kernel_us") == Approx(1.74));
  CHECK(r.values.front().how == "hand-set");
  CHECK(r.key_sources.at("launch.queued_kernel_us") == "the validation runs (h200.adjust.toml)");
}

SCENARIO("a bad adjustments file names the line and the key") {
  CHECK(error_of("[\"launch.kernel_us\"]\nvalue = 2.0\nhow = \"x\"\nsource = \"y\"\n") ==
        ":1:2 launch.kernel_us: the fit produced no such value to adjust");
  CHECK(error_of("[\"launch.queued_kernel_us\"]\nvalue = -1.0\nhow = \"x\"\nsource = \"y\"\n") ==
        ":2:9 launch.queued_kernel_us.value: must be a positive finite number");
  CHECK(error_of("[\"launch.queued_kernel_us\"]\nvalue = 1.5\nhow = \"x\"\n") ==
        ":1:2 launch.queued_kernel_us.source: missing: say where the value comes from");
  CHECK(error_of("[\"launch.queued_kernel_us\"]\nvalue = \"fast\"\nhow = \"x\"\nsource = \"y\"\n") ==
        ":2:9 launch.queued_kernel_us.value: expected a number, got a string");
  CHECK(error_of("[\"launch.queued_kernel_us\"]\nvalue = 1.5\nhow = \"x\"\nsource = \"y\"\nwhy = 1\n") ==
        ":5:1 launch.queued_kernel_us.why: unknown field (value, how and source are the fields)");
}
