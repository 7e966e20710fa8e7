#pragma once
// A traced step as a gpucast Workload: one workload kernel per recognized CPU op (its kernels
// grouped) or per unrecognized kernel (a `traced` op scaled from the source GPU), in launch order,
// on the trace's streams, with the measured host time between launches as host delays, the host
// syncs as sync points and cross-stream waits as dependencies. Each workload kernel keeps its
// source measurement for validation.
#include <string>
#include <vector>

#include "hardware/gpu_spec.h"
#include "workloads/trace/kineto_trace.h"
#include "workloads/trace/trace_links.h"
#include "workloads/workload.h"

namespace gpucast::trace {

struct TracedKernelRecord {
  std::string trace_kernel;      // the (first) trace kernel's name
  std::string cpu_op;            // the CPU op it was recognized from, else the innermost one ("" unlinked)
  std::string outer_op;          // the top-level CPU op around the launch
  std::string kernel_family;     // from the kernel name alone
  double measured_us = 0;        // GPU time in the trace (summed over the group)
  double measured_start_us = 0;  // when its first kernel started, from the window's start
  int kernels = 1;               // trace kernels in the group
  // The least GPU time the group can show: per trace kernel, the trace's shortest activity of its
  // kind (kernel, memcpy, memset), summed.
  double floor_us = 0;
  bool recognized = false;  // re-predicted by an op model (else scaled)
};

struct TraceImport {
  wl::Workload workload;
  std::vector<TracedKernelRecord> records;  // parallel to workload.kernels()
  std::string device_name;                  // deviceProperties name
  std::string source_gpu;                   // catalog id used as the source
  StepWindow window;
  // The step in steady state: from when the GPU was free of earlier work (the window's start, or
  // later when the previous step's kernels were still running) to the later of host end and the
  // last GPU end. The replay starts there with the host already that far into the step.
  double measured_step_us = 0;
  double replay_start_us = 0;  // that start, from the window's start
  double measured_gpu_busy_us = 0;
  double traced_gpu_us = 0;      // summed GPU time of the imported kernels
  double recognized_gpu_us = 0;  // ... of those re-predicted by op models
  size_t trace_kernels = 0;      // GPU activities imported
  double min_kernel_us = 0;      // the shortest GPU activity in the window: the source's kernel floor
  size_t syncs = 0;              // host sync points
  size_t stream_waits = 0;       // cross-stream dependencies
  bool shapes = false;           // the trace recorded input shapes
};

// Builds the workload of `window` (see select_step). `source` is the GPU the trace ran on.
[[nodiscard]] TraceImport import_trace(KinetoTrace& trace, const StepWindow& window,
                                       const hw::GpuSpec& source, const std::string& name);

}  // namespace gpucast::trace
