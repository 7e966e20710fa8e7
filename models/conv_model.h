#pragma once
// 2-D convolution (NHWC) as cuDNN runs it: 1x1 stride-1 convolutions are plain GEMMs; others are
// implicit GEMMs whose K loop walks filter taps; channel counts below the tensor-core alignment
// are padded by an extra kernel first.
#include "models/op_model.h"

namespace gpucast::models {

class ConvModel final : public OpModel {
 public:
  [[nodiscard]] std::vector<PlanOption> plan(const wl::Op& op, const device::Device& gpu) const override;
};

}  // namespace gpucast::models
