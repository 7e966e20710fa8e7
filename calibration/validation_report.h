#pragma once
// Validation: measured kernels (from calibration/validation/suite.py on a real GPU) against
// predictions. Each case's parameters go through the workload format's schema, so a case is
// predicted exactly as `gpucast predict` would predict that kernel.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "hardware/gpu_spec.h"
#include "reports/json.h"
#include "sim/speed_of_light.h"
#include "workloads/op.h"

namespace gpucast::calib {

struct ValidationCase {
  std::string id;
  std::string family;
  std::string split;  // "dev" (looked at while building models) or "test" (reported, never tuned on)
  std::string op;
  std::string shape;
  double measured_us = 0;
  double predicted_us = 0;
  std::string option;  // the predicted kernel variant
  std::string bound;
  std::string measured_kernels;  // what the profiler saw
  sim::SpeedOfLight predicted_sol;  // the prediction against the datasheet peaks
  sim::SpeedOfLight measured_sol;   // the same work in the measured time (DRAM bytes measured when known)
  std::optional<double> ncu_sm_pct, ncu_memory_pct;  // Nsight Compute's own SOL figures, when given
  [[nodiscard]] double error() const { return (predicted_us - measured_us) / measured_us; }
};

struct FamilyStats {
  int count = 0;
  double mape = 0;        // mean absolute percentage error, as a fraction
  double median_ape = 0;  // median absolute percentage error
  double bias = 0;        // mean signed error (over- vs under-prediction)
  double within_10 = 0;   // share of cases within +-10%
};

struct ValidationReport {
  std::string gpu_measured;   // the GPU the measurements came from
  std::string gpu_predicted;  // the description predictions used
  std::string measured_on;    // date and environment of the run
  std::string method;
  std::vector<ValidationCase> cases;
  std::vector<std::string> skipped;  // cases that failed to measure or to predict, with why
  // family -> split ("dev", "test", "all") -> stats; family "overall" aggregates every case.
  std::map<std::string, std::map<std::string, FamilyStats>> stats;
  [[nodiscard]] std::vector<const ValidationCase*> worst(size_t n, const std::string& split = "all") const;
};

// Reads a measurement file and predicts every case on `gpu`. `split` filters ("dev", "test" or
// "" for all). Throws InputError for an unreadable or malformed file.
[[nodiscard]] ValidationReport validate_offline(const std::string& measurements_path, const hw::GpuSpec& gpu,
                                                const std::string& split = "");

// Speed-of-light figures of a case from its prediction: predicted in the predicted time, measured in
// the measured time (`measured_dram_bytes` when the profiler counted them, else the predicted bytes).
void set_speed_of_light(ValidationCase& v, const hw::GpuSpec& gpu, const std::string& pipe, double flops,
                        double predicted_dram_bytes, std::optional<double> measured_dram_bytes, sim::Bound bound);

// Adds a case's error to the per-family and overall statistics.
void summarize_cases(ValidationReport& report);

// Every case of a measurement file as the op it measured (id, op), parsed as validate_offline does.
[[nodiscard]] std::vector<std::pair<std::string, wl::Op>> validation_ops(const std::string& measurements_path);

[[nodiscard]] FamilyStats summarize(const std::vector<double>& errors);

}  // namespace gpucast::calib
