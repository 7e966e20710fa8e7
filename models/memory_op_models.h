#pragma once
// Ops that only move data: embedding gathers (index_select), copies within the GPU and across the
// host link, and `custom` kernels described by their counts.
#include "models/op_model.h"

namespace gpucast::models {

// PyTorch's embedding forward: indexSelectSmallIndex for up to 16 tokens (each thread walks all
// indices, two dependent loads each), a vectorized gather kernel beyond.
class EmbeddingModel final : public OpModel {
 public:
  [[nodiscard]] std::vector<PlanOption> plan(const wl::Op& op, const device::Device& gpu) const override;
};

// d2d: a streaming copy on the SMs (cudaMemcpyAsync); h2d/d2h: the copy engine over PCIe.
class CopyModel final : public OpModel {
 public:
  [[nodiscard]] std::vector<PlanOption> plan(const wl::Op& op, const device::Device& gpu) const override;
};

// A kernel known only by its FLOPs and bytes: assumed well parallelized, at the GPU's sustained
// rates for its data type.
class CustomModel final : public OpModel {
 public:
  [[nodiscard]] std::vector<PlanOption> plan(const wl::Op& op, const device::Device& gpu) const override;
};

}  // namespace gpucast::models
