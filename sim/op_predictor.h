#pragma once
// Predicts one op running alone with do_bench semantics: CUDA events around the op, launches
// queued behind the L2 flush (which, with the op, sets the share of matrix work the power limiter
// sees, unless the device view already carries a window's share). Times every option the op model offers and
// keeps the fastest; the same ranked list is what `explain` shows, so the two cannot disagree.
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "device/device.h"
#include "hardware/system_spec.h"
#include "models/kernel_plan.h"
#include "sim/kernel_timer.h"
#include "sim/op_cache_key.h"
#include "workloads/op.h"

namespace gpucast::sim {

struct OpTiming {
  std::string option;            // the chosen way to run it (tile shape, kernel variant)
  Microseconds duration_us = 0;  // standalone, as do_bench reports
  Microseconds overhead_us = 0;  // launch, queued-kernel gaps, first touch, exposed host time
  Microseconds exec_us = 0;      // the kernels' execution
  std::vector<KernelTiming> kernels;
  double flops = 0;       // useful FLOPs of the op (as MFU counts them)
  double dram_bytes = 0;  // DRAM traffic of the chosen option
  double host_us = 0;     // extra host-side library time per call
  // The least host time of the whole eager call (its framework, launch and library work together):
  // a collective's issue floor (nccl base latency: ProcessGroupNCCL's work per call, measured as the
  // per-call time of back-to-back eager calls). 0: none.
  double host_floor_us = 0;
  // The same floor for a call right after another such call (back-to-back calls run hot).
  double host_floor_hot_us = 0;
  // A collective among ranks whose hosts run at different speeds: it starts on the GPU when the
  // slowest rank has issued it, this much later relative to the host time since the ranks last
  // synchronized (0: lockstep).
  double peer_host_skew = 0;
  // Execution inside a CUDA-graph replay where that differs from exec_us (< 0: the same). A
  // collective's eager time carries the host's issue floor; inside a graph only its GPU time counts.
  Microseconds graph_exec_us = -1;
  // Its blocks stay resident on their SMs for the whole call (NCCL's channels, one block each):
  // sim/sm_residency.h.
  bool holds_sms = false;
  Bound bound = Bound::memory;
  // The tensor cores' busy time (the power limiter's matrix work).
  [[nodiscard]] Microseconds matrix_us() const;
};

class OpPredictor {
 public:
  explicit OpPredictor(device::Device gpu);
  // With a system, collectives are timed by the collective model; without one they are an error.
  explicit OpPredictor(const hw::SystemSpec& system);
  // The same with `gpu` as the view of the system's GPU (e.g. inside a window, Device::at_matrix_share).
  OpPredictor(const hw::SystemSpec& system, device::Device gpu);
  [[nodiscard]] const hw::SystemSpec* system() const { return system_ ? &*system_ : nullptr; }
  [[nodiscard]] const device::Device& device() const { return gpu_; }
  // Cached by the op's parameters: identical ops in a workload are timed once.
  [[nodiscard]] const OpTiming& predict(const wl::Op& op);
  // Every option the op model offers, timed, fastest first (ties keep the model's order): the
  // prediction is the first. Not cached.
  [[nodiscard]] std::vector<OpTiming> rank_options(const wl::Op& op) const;

 private:
  // rank_options on this predictor's device as it is (no do_bench duty applied).
  [[nodiscard]] std::vector<OpTiming> rank_at_device_share(const wl::Op& op) const;
  [[nodiscard]] OpTiming time_option(const models::PlanOption& option) const;
  [[nodiscard]] OpTiming compute(const wl::Op& op) const;
  void finish(OpTiming& t, const wl::Op& op) const;
  device::Device gpu_;
  std::unordered_map<wl::Op, OpTiming, OpHash, OpEqual> cache_;
  std::optional<hw::SystemSpec> system_;
};

}  // namespace gpucast::sim
