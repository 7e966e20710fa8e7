#pragma once
// Schedules a workload's kernels in time: the host issues them in file order (eager: one host
// launch cost each; graph: one replay), each stream runs its kernels in order, dependencies wait,
// and kernels on different streams that overlap share the SMs and DRAM bandwidth (each slows by
// the oversubscription of the busier resource).
#include <vector>

#include "sim/op_predictor.h"
#include "workloads/workload.h"

namespace gpucast::sim {

struct ScheduledKernel {
  Microseconds issue_us = 0;  // when the host has issued it
  Microseconds start_us = 0;  // when the GPU begins it (launch overhead included from here)
  Microseconds end_us = 0;
  bool waited_for_host = false;  // its launch could not be hidden behind earlier GPU work
};

struct Timeline {
  std::vector<ScheduledKernel> kernels;  // workload order
  Microseconds total_us = 0;             // makespan
  Microseconds gpu_busy_us = 0;          // union of kernel intervals
  Microseconds host_us = 0;              // when the host issued the last kernel (plus a replayed tail)
  Microseconds host_sync_wait_us = 0;    // host time spent waiting for the GPU at sync points
  [[nodiscard]] Microseconds gpu_idle_us() const { return total_us - gpu_busy_us; }
};

// `ops[i]` is the standalone prediction of kernel i; `dram` the sustained DRAM rate that
// overlapping kernels share; `costs` the device's launch and host costs (device/launch_costs.h).
// `issue_us`, when given (one per kernel), says when the host has launched each kernel
// (sim/host_timeline.h) instead of the flat eager/graph host costs in `costs`.
[[nodiscard]] Timeline schedule(const wl::Workload& w, const std::vector<const OpTiming*>& ops,
                                device::BytesPerUs dram, const device::LaunchCosts& costs,
                                const std::vector<Microseconds>* issue_us = nullptr);

}  // namespace gpucast::sim
