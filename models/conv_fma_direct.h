#pragma once
// cuDNN's direct NHWC convolution on the FMA pipe (convolve_common_engine_float_NHWC<T, T, ...>),
// which it runs for inputs of a few channels that tensor cores would need padded: FP32 with TF32
// off up to 16 channels (C = 3, 5, 13), tf32 and fp16 at 9-15 unaligned channels (fp16 C = 13).
// No im2col GEMM: a thread holds 4 output channels of one output pixel (the channels covered in
// whole groups of 32) and walks the filter's taps and channels, loading each input value and multiplying it into its output channels with weights
// read from shared memory; the kernel is bound by the issue of that per-tap work, and small grids by
// each thread's chain of dependent steps.
#include "device/device.h"
#include "models/kernel_plan.h"
#include "workloads/op.h"

namespace gpucast::models {

[[nodiscard]] PlanOption fma_direct_conv_plan(const wl::Conv2dOp& op, const device::Device& gpu);

}  // namespace gpucast::models
