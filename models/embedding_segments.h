#pragma once
// The segment sums of PyTorch's sorted embedding backward (embedding_backward_cuda_kernel,
// aten/src/ATen/native/cuda/EmbeddingBackwardKernel.cu): once the indices are sorted, the rows of one
// index form a segment, split into partial segments of at most NROWS_PER_THREAD rows.
// compute_grad_weight runs a thread per (partial segment, feature) that adds the partial segment's
// gradient rows into an fp32 buffer; sum_and_scatter runs a thread per (segment, feature) that adds
// the segment's partials and writes the table row. Both are chains of dependent scalar loads, so the
// number of segments (which the indices' values set, not their count) prices them.
#include "device/device.h"
#include "models/kernel_plan.h"

namespace gpucast::models {

struct EmbeddingSegments {
  double unique = 0;   // distinct indices (segments)
  double partial = 0;  // partial segments of at most NROWS_PER_THREAD rows
};

// Expected segments of `tokens` indices drawn uniformly from `vocab` rows (the model's assumption
// about the indices, as the validation suite's torch.randint draws them): each row's count is
// Poisson(tokens / vocab).
[[nodiscard]] EmbeddingSegments expected_segments(double tokens, double vocab);

// The two kernels for `tokens` gradient rows of `dim` features of `element_bytes` each.
[[nodiscard]] KernelPlan compute_grad_weight_kernel(const EmbeddingSegments& s, double tokens, double dim,
                                                    double element_bytes, const device::Device& gpu);
[[nodiscard]] KernelPlan sum_and_scatter_kernel(const EmbeddingSegments& s, double dim, double element_bytes,
                                                const device::Device& gpu);

}  // namespace gpucast::models
