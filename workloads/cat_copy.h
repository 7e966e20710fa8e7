#pragma once
// torch.cat's CUDA kernel, shared by the trace importer (workloads/trace/op_recognition.cpp) and the
// generated training step (workloads/training_step.cpp).

namespace gpucast::wl {

// CatArrayBatchedCopy (aten/src/ATen/native/cuda/Shape.cu, CatArrIndexToOffset) turns each
// element's linear index into an offset with a plain 32-bit division and remainder per dimension
// (no hardware integer divide: a ~15-instruction sequence), where TensorIterator's strided kernel
// multiplies by a precomputed reciprocal (IntDivider): about five FLOP-equivalents (15 lane
// instructions at the elementwise model's rate) more per dimension than the strided kernel's
// per-operand count (models/elementwise_model.cpp). Dev constant: the H100 traces' RoPE cats (4-D
// bf16, 2.1M-6.3M elements) ran 27-30% over the strided kernel's old count of 90 instructions an
// element, about 85% over its per-operand count of 68 for a copy (2 operands).
inline constexpr double kCatDivisionFlopsPerDim = 5;

}  // namespace gpucast::wl
