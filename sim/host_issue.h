#pragma once
// The host side of the timeline: when the host issues each kernel. Eager workloads pay the
// per-launch host cost (and library ops their extra host time); a CUDA graph issues everything at
// once; a replayed trace gives each kernel its measured host delay, and a sync point makes the
// host wait until every earlier kernel has finished before it goes on. The host issue issue
// (host descriptions) builds on this.
#include <vector>

#include "device/launch_costs.h"
#include "sim/op_predictor.h"
#include "workloads/workload.h"

namespace gpucast::sim {

class HostIssuer {
 public:
  // `fixed`, when given (one time per kernel, from a host description's timeline), is when the
  // host launches each kernel; its syncs are already in those times.
  HostIssuer(const wl::Workload& w, const std::vector<const OpTiming*>& ops, const device::LaunchCosts& costs,
             const std::vector<Microseconds>* fixed = nullptr);

  // Issues kernels in order from the next unissued one up to (not including) the next sync point
  // that still waits on the GPU. `gpu_done_us` is when every kernel before the next unissued one
  // finished (only read when that kernel is a sync point). Returns the index range issued.
  std::pair<size_t, size_t> issue(Microseconds gpu_done_us);
  // The next unissued kernel, or size() when all are issued.
  [[nodiscard]] size_t next() const { return next_; }
  // True when the next unissued kernel must first wait for all earlier kernels to finish.
  [[nodiscard]] bool blocked_on_sync() const;
  [[nodiscard]] Microseconds issue_us(size_t i) const { return issue_[i]; }
  // When the host finishes: the last issue plus the workload's host tail.
  [[nodiscard]] Microseconds host_end_us() const;
  // Time the host spent waiting at sync points.
  [[nodiscard]] Microseconds sync_wait_us() const { return sync_wait_us_; }

 private:
  const wl::Workload& w_;
  const std::vector<const OpTiming*>& ops_;
  const device::LaunchCosts& costs_;
  const std::vector<Microseconds>* fixed_;
  std::vector<Microseconds> issue_;
  size_t next_ = 0;
  Microseconds host_ = 0;
  Microseconds sync_wait_us_ = 0;
};

}  // namespace gpucast::sim
