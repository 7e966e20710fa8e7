#pragma once
// A transformer training step as eager PyTorch runs an HF-style Llama (calibration/runs/common.py):
// RMSNorm as its pointwise ops, separate q/k/v and gate/up projections, rotate-half RoPE,
// repeat_kv copies, SDPA, cross-entropy (with the fp32 upcast of the logits under autocast),
// embedding backward as PyTorch does it (sort, segment reduce, scatter), every autograd node's
// kernels, gradient accumulation, gradient clipping and the optimizer as torch.optim runs it
// (foreach multi_tensor_apply launches chunked like PyTorch's, or fused). Each kernel carries the
// host work that issues it (module calls, aten ops, autograd nodes, launches, library calls,
// optimizer Python). Selected by GenerateOptions::precision != dtype.
#include "workloads/generate.h"

namespace gpucast::wl {

[[nodiscard]] GeneratedModel generate_training_step(const TransformerConfig& c, const GenerateOptions& o);

// Elements of each multi_tensor_apply launch over `numels` (PyTorch: 65536-element chunks, at
// most 320 blocks per launch and depth_to_max_tensors[depth - 1] tensors).
[[nodiscard]] std::vector<double> multi_tensor_launches(const std::vector<double>& numels, int depth);

// Parameter tensors of an HF-style Llama in model.parameters() order (embedding, per layer: norm,
// q, k, v, o, norm, gate, up, down; final norm; lm_head unless tied).
[[nodiscard]] std::vector<double> llama_parameter_numels(const TransformerConfig& c);

}  // namespace gpucast::wl
