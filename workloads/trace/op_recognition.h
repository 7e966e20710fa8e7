#pragma once
// Recognizing what a traced kernel computes from the CPU op that launched it and that op's input
// shapes (record_shapes=True): aten::mm/addmm/bmm/linear/matmul/_scaled_mm -> gemm, SDPA/flash/
// efficient/cuDNN attention forward and backward -> attention, layer/RMS norm and softmax (and their
// backward), convolution forward/backward, embedding (and its backward), pointwise ops and
// reductions by element count and type, optimizer foreach/fused updates by tensor count and size.
#include <optional>
#include <string>

#include "workloads/op.h"
#include "workloads/trace/kineto_trace.h"

namespace gpucast::trace {

// The gpucast op for `op` (its shapes), or nullopt when the name or the shapes do not identify
// one. `kernel` is the name of a kernel it launched (vectorized vs strided pointwise kernels,
// TF32 GEMMs).
[[nodiscard]] std::optional<wl::Op> recognize_op(const CpuOp& op, const std::string& kernel);

// Foreach/fused optimizer ops whose tensor lists carry no sizes (PyTorch 2.5+ records none): their
// element count comes from the kernels' grids, one 65536-element chunk per block
// (multi_tensor_apply's kChunkSize).
[[nodiscard]] bool foreach_without_sizes(const CpuOp& op);
inline constexpr double kForeachChunkElements = 65536;

// The family a kernel name alone reveals ("gemm", "attention", "conv", "elementwise", "reduce",
// "norm", "softmax", "optimizer", "embedding", "copy", "memset"), or "other".
[[nodiscard]] std::string kernel_family(const std::string& kernel);
// The operand type a GEMM/attention kernel name reveals (bf16, f16, tf32, e4m3...), or nullopt.
[[nodiscard]] std::optional<DataType> kernel_dtype(const std::string& kernel);

// PyTorch's "Input type" strings ("c10::BFloat16", "float", "long int", ...): the gpucast type of
// the same element size, or nullopt when not a tensor type.
[[nodiscard]] std::optional<DataType> torch_dtype(const std::string& type);

// Elements of a recorded tensor shape ("Input Dims"; negative sizes count as 0).
[[nodiscard]] wl::Count numel(const std::vector<std::int64_t>& shape);

// Bytes of every tensor argument (a first-order work estimate for scaled kernels; 0 without shapes).
[[nodiscard]] double input_bytes(const CpuOp& op);

}  // namespace gpucast::trace
