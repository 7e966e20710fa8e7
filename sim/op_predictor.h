#pragma once
// Predicts one op running alone with do_bench semantics: CUDA events around the op, launches
// queued behind the L2 flush. Tries every option the op model offers and keeps the fastest.
#include <string>
#include <unordered_map>
#include <vector>

#include "hardware/gpu_spec.h"
#include "sim/kernel_timer.h"
#include "sim/op_cache_key.h"
#include "workloads/op.h"

namespace gpucast::sim {

struct OpTiming {
  std::string option;          // the chosen way to run it (tile shape, kernel variant)
  Microseconds duration_us = 0;  // standalone, as do_bench reports
  Microseconds overhead_us = 0;  // launch, queued-kernel gaps, first touch, exposed host time
  Microseconds exec_us = 0;      // the kernels' execution
  std::vector<KernelTiming> kernels;
  double flops = 0;       // useful FLOPs of the op (as MFU counts them)
  double dram_bytes = 0;  // DRAM traffic of the chosen option
  double host_us = 0;     // extra host-side library time per call
  Bound bound = Bound::memory;
};

class OpPredictor {
 public:
  explicit OpPredictor(hw::GpuSpec gpu);
  [[nodiscard]] const hw::GpuSpec& gpu() const { return gpu_; }
  [[nodiscard]] const GpuRates& rates() const { return rates_; }
  // Cached by the op's parameters: identical ops in a workload are timed once.
  [[nodiscard]] const OpTiming& predict(const wl::Op& op);

 private:
  [[nodiscard]] OpTiming compute(const wl::Op& op) const;
  hw::GpuSpec gpu_;
  GpuRates rates_;
  std::unordered_map<wl::Op, OpTiming, OpHash, OpEqual> cache_;
};

// A key that is equal for ops with equal parameters.
[[nodiscard]] std::string op_key(const wl::Op& op);

}  // namespace gpucast::sim
