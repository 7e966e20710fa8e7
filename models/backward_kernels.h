#pragma once
// Backward passes of the memory-bound ops, as PyTorch's CUDA kernels run them under autograd:
// layer / RMS norm backward (an input-gradient kernel per row, then a column reduction for the weight
// and bias gradients) and embedding_dense_backward (zero the table's gradient, then either scatter
// the rows' gradients directly or sort the indices first and sum each index's rows).
#include "device/device.h"
#include "models/kernel_plan.h"
#include "workloads/op.h"

namespace gpucast::models {

// PyTorch's Embedding.cu takes the direct path (embedding_backward_feature_kernel) up to this many
// indices and sorts above it (library fact, aten/src/ATen/native/cuda/Embedding.cu).
constexpr double kEmbeddingDirectBackwardMaxIndices = 3072;

[[nodiscard]] PlanOption norm_backward_plan(const wl::RowOp& r, const device::Device& gpu);
[[nodiscard]] PlanOption embedding_backward_plan(const wl::EmbeddingOp& m, const device::Device& gpu);

// Launches TensorIterator needs for a tensor of `bytes`: pieces of at most 2^31 bytes (32-bit offsets).
[[nodiscard]] int index_launches(double bytes);

}  // namespace gpucast::models
