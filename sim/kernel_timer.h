#pragma once
// Times one kernel by waves of thread blocks: blocks resident per SM from threads, registers and
// shared memory; full waves plus a tail wave; each wave bounded by compute (the SM's pipes shared
// by its resident blocks), DRAM and L2 (whole-GPU and per-SM ceilings) or the blocks' dependent
// latency chain. Cost is O(1) in the number of blocks.
#include <string>

#include "device/device.h"
#include "models/kernel_plan.h"

namespace gpucast::sim {

using device::Microseconds;

enum class Bound { compute, memory, latency, launch };
[[nodiscard]] std::string_view bound_name(Bound b);

struct KernelTiming {
  std::string name;
  Microseconds exec_us = 0;      // the blocks' execution, no launch overhead
  double blocks = 0;             // thread blocks in the grid
  double waves = 0;              // blocks / (resident blocks per SM x SMs), fractional
  int blocks_per_sm = 0;
  Microseconds compute_us = 0;   // time in waves where arithmetic was the longest term
  Microseconds memory_us = 0;    // ... where DRAM or L2 traffic was
  Microseconds latency_us = 0;   // ... where the dependent latency chain was
  double dram_bytes = 0;
  double flops = 0;              // on the kernel's main pipe, as executed (padding included)
  // The execution when every load finds its data in the L2 (a warm consumer, sim/warm_l2.h): reads
  // cost L2 traffic only, dependent round trips and the first load wait the L2's round trip.
  Microseconds l2_input_exec_us = 0;
  // Its non-memory bound: the execution with its loads from the L2 and no cost for its bytes (its
  // compute and dependent-latency terms), the least a warm consumer can take.
  Microseconds non_memory_exec_us = 0;
  // What the write-backs of the dirty lines its reads evict add to exec_us, after a flushed L2
  // (KernelPlan::dirty_evicted_bytes; a workload's kernels find fewer: sim/l2_dirty_state.h).
  Microseconds writeback_us = 0;
  bool persistent = false;  // KernelPlan::persistent: its blocks cannot share an SM that others hold
  bool matrix = false;  // runs on the tensor cores: matrix work, which the power limiter counts
  // Time the tensor cores are busy, averaged over the SMs (pipe work at the rate the kernel is
  // timed at, at most exec_us): what the kernel adds to the power limiter's matrix share.
  Microseconds matrix_busy_us = 0;
  [[nodiscard]] Bound bound() const;
};

[[nodiscard]] KernelTiming time_kernel(const models::KernelPlan& k, const device::Device& gpu);

}  // namespace gpucast::sim
