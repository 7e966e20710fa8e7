#pragma once
// fp16 and tf32 convolutions whose input channels fill less than one 16-byte vector (a 3-channel
// stem) on sm80 and later: cuDNN runs sm80_xmma_fprop_implicit_gemm_indexed_wo_smem_* without padding
// the channels first: each warp gathers its taps straight from global memory into registers (no
// shared-memory staging, one stage), so every tap is a dependent L2 round trip. TF32 first rounds the
// input and the filter to TF32 (convertTensor_kernel, one pass each). bf16 has no such kernel and pads.
#include "device/device.h"
#include "models/kernel_plan.h"
#include "workloads/op.h"

namespace gpucast::models {

[[nodiscard]] PlanOption indexed_few_channel_conv_plan(const wl::Conv2dOp& op, DataType math,
                                                       const device::Device& gpu);

}  // namespace gpucast::models
