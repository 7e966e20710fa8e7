#pragma once
// What users ask of a model run: does it fit, how fast, how much of the GPU it uses.
#include "reports/json.h"
#include "reports/table.h"
#include "sim/simulator.h"
#include "workloads/memory_advice.h"

namespace gpucast::reports {

struct ModelRun {
  wl::GeneratedModel model;
  wl::FitReport fit;
  double peak_tflops = 0;  // dense rate of the run's data type, for MFU
};

[[nodiscard]] double items_per_second(const ModelRun& run, const sim::Prediction& p);
[[nodiscard]] double mfu(const ModelRun& run, const sim::Prediction& p);
[[nodiscard]] Table memory_table(const ModelRun& run);
[[nodiscard]] std::string model_summary(const ModelRun& run, const sim::Prediction& p);
[[nodiscard]] Json memory_json(const ModelRun& run);
[[nodiscard]] Json throughput_json(const ModelRun& run, const sim::Prediction& p);

}  // namespace gpucast::reports
