#pragma once
// A workload prediction as a table (one row per kernel, then totals and time by op family), as
// JSON (documented schema, docs/report-formats.md), as CSV and as Markdown.
#include "reports/host_report.h"
#include "reports/json.h"
#include "reports/model_report.h"
#include "reports/report.h"
#include "reports/table.h"
#include "sim/simulator.h"
#include "sim/speed_of_light.h"

namespace gpucast::reports {

[[nodiscard]] Table kernel_table(const hw::GpuSpec& gpu, const sim::Prediction& p);
[[nodiscard]] Table op_summary_table(const sim::Prediction& p);
[[nodiscard]] Json prediction_json(const hw::GpuSpec& gpu, const sim::Prediction& p);
// Speed of light against the GPU description's datasheet peaks: the pipe's dense TFLOP/s
// (compute.tensor_tflops.<dtype>, fp32_tflops or fp64_tflops) and memory.bandwidth_gbps.
[[nodiscard]] sim::SpeedOfLight speed_of_light(const hw::GpuSpec& gpu, const std::string& pipe, double flops,
                                               double dram_bytes, double duration_us, sim::Bound bound);
[[nodiscard]] sim::SpeedOfLight kernel_sol(const hw::GpuSpec& gpu, const sim::KernelPrediction& k);
// A speed-of-light figure as the JSON reports write it (predict's kernels, validate's cases).
[[nodiscard]] Json sol_json(const sim::SpeedOfLight& s);
// Kernel rows with stable column names for scripts.
[[nodiscard]] Table kernel_csv_table(const hw::GpuSpec& gpu, const sim::Prediction& p);
// The headline: total time, GPU busy and idle, achieved rates.
[[nodiscard]] std::string prediction_summary(const sim::Prediction& p);

// The whole prediction as a report: headline, memory and throughput when `run` is given (a
// generated model), the kernel list (left out of text output past 60 kernels), time by op, the
// roofline, where the time goes and the timeline.
// `alternatives`: what would change a host-bound run (cli computes them); may be null.
[[nodiscard]] Report prediction_report(const hw::GpuSpec& gpu, const sim::Prediction& p, const ModelRun* run,
                                       const std::vector<HostAlternative>* alternatives = nullptr);

}  // namespace gpucast::reports
