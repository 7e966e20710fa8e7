#pragma once
// Turns microbenchmark measurements (gpucast-microbench JSON, plus the framework probe's) into
// calibrated hardware values: measured rates, latencies and launch costs, and efficiencies as
// fractions of the catalog's datasheet peaks. Least-squares fits (Eigen) where several points
// constrain a line; every fit records its residual.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "hardware/catalog.h"
#include "hardware/gpu_spec.h"
#include "reports/json.h"

namespace gpucast::calib {

struct FittedValue {
  std::string key;  // hardware key path, e.g. "efficiency.tensor.bf16"
  double value = 0;
  std::string how;  // which measurement and fit, with the numbers behind it
};

struct FitQuality {
  std::string name;
  int points = 0;
  double rms_relative_residual = 0;  // sqrt(mean((fit - measured)^2 / measured^2))
};

struct CalibrationResult {
  std::string gpu_name;
  std::string date;
  std::string driver;
  std::string cuda;
  std::vector<FittedValue> values;
  std::vector<FitQuality> fits;
  std::vector<std::string> notes;  // clamped values, missing benchmarks
  // Provenance of single keys that differ from their section's (hand-set values: adjustments.h).
  std::map<std::string, std::string> key_sources;
  [[nodiscard]] std::optional<double> value(const std::string& key) const;
};

// Least-squares line y = a + b x (Eigen); returns {a, b} and the relative RMS residual.
struct LineFit {
  double intercept = 0;
  double slope = 0;
  double rms_relative = 0;
};
[[nodiscard]] LineFit fit_line(const std::vector<double>& x, const std::vector<double>& y);
// Least-squares line through the origin y = b x; intercept is 0.
[[nodiscard]] LineFit fit_through_origin(const std::vector<double>& x, const std::vector<double>& y);

// `base_id` (a catalog entry) supplies the datasheet peaks efficiencies are fractions of; the values
// the simulator's own terms decide (GEMM efficiency, the kernel launch floor) are fitted through it.
[[nodiscard]] CalibrationResult fit_calibration(const reports::Json& microbench, const reports::Json* framework,
                                                const hw::Catalog& catalog, const std::string& base_id);

// Several measurement files as one: results are concatenated (a benchmark measured twice fits on
// all its points); the device and date of the first file are kept.
[[nodiscard]] reports::Json merge_measurements(const std::vector<reports::Json>& docs);

// The calibrated profile: a TOML file that extends `base_id`, holds the fitted values with
// provenance, and names `measurements_file` as its raw data.
[[nodiscard]] std::string calibrated_toml(const CalibrationResult& r, const std::string& base_id,
                                          const std::string& measurements_file);

}  // namespace gpucast::calib
