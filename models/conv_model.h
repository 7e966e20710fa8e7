#pragma once
// 2-D convolution (NHWC) as cuDNN runs it: conv_algorithm.h picks the algorithm family (GEMM for
// 1x1, implicit precomputed GEMM, the few-channel sm80 kernels, FP32 FMA implicit GEMM, fused
// Winograd, and on Hopper the NCHW FMA path and the direct NHWC FMA kernel); this model times every
// tile configuration of that family. Channels below the tensor-core alignment are padded by kernels
// of their own first.
#include "models/op_model.h"

namespace gpucast::models {

class ConvModel final : public OpModel {
 public:
  [[nodiscard]] std::vector<PlanOption> plan(const wl::Op& op, const device::Device& gpu) const override;
};

}  // namespace gpucast::models
