#pragma once
// The serial chain of one thread block that holds a single K/V stage (the memory-efficient kernel):
// each step waits for its K tile, multiplies, waits for its V tile, multiplies; nothing is prefetched,
// so within the block its loads and its arithmetic take turns. Other resident blocks fill an SM's
// pipes while one block waits, but a block's own time is its loads' round trips plus its arithmetic:
// a grid of few blocks per SM (few queries over many keys, one 64-row tile per (batch, head) walking
// every key tile) lasts the whole chain, where a full SM hides it behind its residents' products.
#include <algorithm>
#include <cmath>

#include "device/device.h"
#include "models/kernel_plan.h"

namespace gpucast::models {

// Lane-instructions per clock one warp sustains alone (the kernel timer's issue rule: dependent
// instructions stall it about every other cycle).
constexpr double kChainWarpIssueFraction = 0.5;

// Cycles one block of `k` computes with an SM to itself: its products on `k.pipe` at the block's
// pipe efficiency, then its SIMT and SFU work (serialized by `k.overlap` as the timer does).
[[nodiscard]] inline double lone_block_compute_cycles(const KernelPlan& k, const device::Device& gpu) {
  const double pipe_us =
      k.pipe == Pipe::none ? 0 : k.pipe_flops / (gpu.pipe_rate(k.pipe, k.dtype) * k.pipe_efficiency);
  const double warp = gpu.warp_size();
  const double lanes = std::min(double(gpu.simt_lanes()),
                                std::ceil(std::max(1, k.threads) / warp) * warp * kChainWarpIssueFraction);
  const double other_us =
      k.simt_instructions / (lanes * gpu.clock_mhz()) + k.sfu_ops / gpu.rates().sfu_per_us;
  const double us = std::max(pipe_us, other_us) + (1 - k.overlap) * std::min(pipe_us, other_us);
  return us * gpu.clock_mhz();
}

}  // namespace gpucast::models
