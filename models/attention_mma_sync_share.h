#pragma once
// The rate Hopper's warp-level (mma.sync) attention kernels reach: FlashAttention-2's and the
// memory-efficient (xFormers / CUTLASS) forward and backward kernels.
#include "device/device.h"

namespace gpucast::models {

// Hopper's warp-level (mma.sync) attention kernels (FlashAttention-2, memory-efficient) run at a
// share of the datasheet peak, the Hopper default's mma.sync share (the H100's microbenchmark,
// architectures/hopper.toml): the H200's own calibration (0.629 against the H100's 0.574) does not
// show in the same kernels (dev: fmha_cutlassF 64x128, b1 h32 8192 d128, 6.19 ms on the H100 and 6.30
// on the H200). Dev attention MAPE, H200 calibrated: 9.42% -> 9.24% (shares 0.55-0.60 scanned, H100
// unchanged at 0.574). The backward kernels alike: fmha_cutlassB 128x128 (b1 h32 8192 d128) takes
// 19.7 ms on the H100 and 19.8 on the H200 (dev), flash_bwd_dq_dk_dv_loop_seqk_parallel (b1 h32 8192
// d128) 8.69 and 8.74 ms (calibration).
constexpr double kHopperMmaSyncPeakShare = 0.574;
// Hopper's compute capability major (CUDA programming guide).
constexpr int kMmaSyncShareCcMajor = 9;

// Factor on a Hopper GPU's calibrated mma.sync rate that gives kHopperMmaSyncPeakShare of its
// datasheet tensor peak (1 elsewhere).
[[nodiscard]] inline double hopper_mma_sync_rate_factor(const device::Device& gpu, DataType dtype) {
  if (gpu.cc_major() != kMmaSyncShareCcMajor) return 1.0;
  return kHopperMmaSyncPeakShare * gpu.tensor_peak_per_sm(dtype) /
         gpu.pipe_rate(device::Pipe::mma_sync, dtype);
}

}  // namespace gpucast::models
