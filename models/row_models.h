#pragma once
// Row-wise ops as PyTorch's CUDA kernels run them: sums over the last dimension (reduce_kernel),
// softmax (warp, register, shared-memory and three-pass block kernels) and layer / RMS norm
// (vectorized_layer_norm_kernel, one 128-thread block per row, two passes over the row).
#include "models/op_model.h"

namespace gpucast::models {

class RowOpModel final : public OpModel {
 public:
  [[nodiscard]] std::vector<PlanOption> plan(const wl::Op& op, const device::Device& gpu) const override;
};

}  // namespace gpucast::models
