#pragma once
// FP32 convolutions with TF32 off on Hopper, as cuDNN 9 runs them for inputs wider than a few
// channels: the channels_last tensors are transposed to NCHW (input, and the filter when it has
// more than one tap), an sm80 SIMT implicit GEMM (sm80_xmma_fprop_implicit_gemm_f32f32_..._nchwkcrs_
// nchw_tilesize{32x32x8,128x32x8,256x64x8}_..._ffma) computes in NCHW, and the output is transposed
// back. The kernel is bound by its busiest scheduler's issue of its warps' FMAs (a low share of what
// they issue) plus the exposed latency of every 8-deep K step, not by the SM's FMA rate.
#include "device/device.h"
#include "models/kernel_plan.h"
#include "workloads/op.h"

namespace gpucast::models {

// The NCHW implicit GEMM's tile (library fact: the tilesize and warpsize fields of the kernel names).
struct FmaNchwTile {
  double m = 0, n = 0;  // output pixels x output channels per block
  int threads = 0;      // 32 x warps
};

// cuDNN's pick: for 1x1 filters the 256x64 tile (4 warps) where its grid fills at least half the SMs,
// else 32x32 (2 warps); for wider filters 256x64 where the output channels are exactly its width (64)
// and its grid fills the SMs, else 128x32 (4 warps) over 1.5 to 8 SMs' worth of its blocks, else 32x32.
[[nodiscard]] FmaNchwTile fma_nchw_tile(const wl::Conv2dOp& op, const device::Device& gpu);
[[nodiscard]] PlanOption fma_nchw_conv_plan(const wl::Conv2dOp& op, const device::Device& gpu);

}  // namespace gpucast::models
