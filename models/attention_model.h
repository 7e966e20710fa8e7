#pragma once
// Fused attention forward as cuDNN / FlashAttention-class kernels run it: query tiles on thread
// blocks streaming key/value tiles through shared memory, tensor cores for QK^T and PV with the
// online softmax between them; decode (a few query rows) splits the KV sequence across blocks.
#include "models/op_model.h"

namespace gpucast::models {

class AttentionModel final : public OpModel {
 public:
  [[nodiscard]] std::vector<PlanOption> plan(const wl::Op& op, const device::Device& gpu) const override;
};

}  // namespace gpucast::models
