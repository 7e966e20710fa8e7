#pragma once
// A profiler trace predicted on a GPU, as one report: the prediction (kernels, timeline, time by
// op), how much of the traced GPU time op models re-predicted and how much was scaled, the kernels
// no op model recognized with their share, and, when the target is the GPU the trace was recorded
// on, every re-predicted kernel measured (the trace) against predicted in the `validate` format.
#include "calibration/validation_report.h"
#include "device/device.h"
#include "reports/report.h"
#include "sim/simulator.h"
#include "workloads/trace/trace_workload.h"

namespace gpucast::calib {

// Measured (trace) against predicted kernel time (execution, without launch gaps) for every
// workload kernel an op model re-predicted; family = the op family. `gpu`: the GPU predicted (its
// memory latencies set the floor of a kernel that loads).
[[nodiscard]] ValidationReport trace_validation(const trace::TraceImport& t, const sim::Prediction& p,
                                                const device::Device& gpu);

// `same_gpu`: the target is the trace's source GPU (adds the validation sections).
[[nodiscard]] reports::Report trace_report(const hw::GpuSpec& gpu, const sim::Prediction& p,
                                           const trace::TraceImport& t, bool same_gpu, size_t worst = 10);

}  // namespace gpucast::calib
