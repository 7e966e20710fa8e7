#pragma once
// A workload on a multi-GPU system: the system, every collective with its algorithm and nccl-tests
// bandwidths, time in communication (exposed vs overlapped), the pipeline schedule and, for a
// generated model, per-GPU memory, step time, tokens/s, time per output token and MFU of the layout.
#include <optional>

#include "hardware/system_spec.h"
#include "reports/model_report.h"
#include "reports/report.h"
#include "sim/comm_overlap.h"
#include "sim/pipeline_schedule.h"
#include "workloads/generate.h"

namespace gpucast::reports {

struct ParallelRun {
  const hw::SystemSpec* system = nullptr;
  const wl::Workload* workload = nullptr;
  const ModelRun* run = nullptr;              // generated model, else nullptr
  wl::Parallelism layout;
  sim::CommunicationTime comm;
  std::optional<sim::PipelineSchedule> pipeline;  // pp > 1
  sim::Microseconds step_us = 0;                  // the whole step (pipeline and tail included)
  [[nodiscard]] double tokens_per_s() const;
  [[nodiscard]] double mfu() const;
};

// Step time of a prediction under the layout: pipeline schedule plus the step's tail for pp > 1,
// else the prediction's total.
[[nodiscard]] ParallelRun analyze_parallel(const hw::SystemSpec& system, const wl::Workload& w,
                                           const sim::Prediction& p, const ModelRun* run,
                                           const wl::Parallelism& layout);

// Adds the multi-GPU sections, headline lines and JSON to a prediction report.
void add_parallel_sections(Report& r, const ParallelRun& pr, const sim::Prediction& p);

[[nodiscard]] Table system_table(const hw::SystemSpec& s);

}  // namespace gpucast::reports
