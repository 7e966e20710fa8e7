#pragma once
// Which cuBLAS path a GEMM takes by the alignment of its operands. cuBLAS runs its fast kernels
// (Hopper: TMA loads and wgmma, "nvjet"; Ampere: cp.async 16-byte loads) only when every operand's
// leading dimension is a multiple of 16 bytes. Otherwise it falls back to CUTLASS kernels with
// narrow loads (the sm75/sm80 "s1688gemm ... align1/align2" kernels the profiler names for such
// shapes on the H100 and H200), far below the tensor rate.
//
// gpucast's GEMM is C[m,n] = A[m,k] B[k,n] on row-major tensors; an operand stored transposed
// (GemmOp::transpose_a / transpose_b) changes its leading dimension: A's is k (m when stored
// transposed, as a weight gradient's g^T), B's is n (k when stored transposed, as a linear layer's
// W^T), C's is n.
#include "common/dtype.h"
#include "workloads/op.h"

namespace gpucast::models {

// The fallback kernels run on warp-level mma.sync (GemmShape::warp_mma: the mma_sync pipe's rate,
// its K step, no clusters); their align1/align2 loads (one or two elements per load instead of a
// 16-byte vector) reach only this share of that rate (dev constants: the compute-bound unaligned
// GEMMs of the broad validation set's dev split, 16-bit and tf32, H100 and H200).
constexpr double kUnaligned16BitEfficiency = 0.24;
constexpr double kUnalignedTf32Efficiency = 0.44;

// Each operand's leading dimension (elements between consecutive rows as stored).
struct GemmLeadingDims {
  wl::Count a = 0, b = 0, c = 0;
};
[[nodiscard]] GemmLeadingDims gemm_leading_dims(const wl::GemmOp& g);

// True when every operand's leading dimension is a whole 16-byte vector of the operand type.
[[nodiscard]] bool gemm_operands_aligned(const wl::GemmOp& g);

// Factor on the fallback kernel's mma.sync rate: 1 for aligned operands or types without a tensor
// path here (fp32 runs SIMT kernels, fp8 refuses unaligned shapes), the narrow loads' share otherwise.
[[nodiscard]] double gemm_alignment_efficiency(const wl::GemmOp& g);

}  // namespace gpucast::models
