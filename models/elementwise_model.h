#pragma once
// Pointwise ops (add, mul, activations, casts) as PyTorch runs them: a vectorized kernel when input
// and output types match, an unrolled scalar kernel with per-element index math for casts.
#include "models/op_model.h"

namespace gpucast::models {

class ElementwiseModel final : public OpModel {
 public:
  [[nodiscard]] std::vector<PlanOption> plan(const wl::Op& op, const device::Device& gpu) const override;
};

}  // namespace gpucast::models
