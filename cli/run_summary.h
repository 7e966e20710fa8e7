#pragma once
// Turns a prediction of a resolved workload into the summary compare, cost and sweep report.
#include "cli/workload_source.h"
#include "reports/run_summary.h"

namespace gpucast::cli {

// A "result" is what a user buys: 1M tokens (language models), an image (vision inference), a
// training step (training) or one run of a workload file.
struct ResultUnit {
  std::string name;
  double per_step = 1;  // results produced by one run of the workload
};

[[nodiscard]] ResultUnit result_unit(const ResolvedWorkload& w);

[[nodiscard]] reports::RunSummary summarize(const ResolvedWorkload& w, const hw::GpuSpec& gpu,
                                            const sim::Prediction& p);

}  // namespace gpucast::cli
