#pragma once
// Which cuBLAS path a GEMM takes by the alignment of its operands. cuBLAS runs its fast kernels
// (Hopper: TMA loads and wgmma, "nvjet"; Ampere: cp.async 16-byte loads) only when every operand's
// leading dimension is a multiple of 16 bytes. Otherwise it falls back to CUTLASS kernels with
// narrow loads (the sm75/sm80 "s1688gemm ... align1/align2" kernels the profiler names for such
// shapes on the H100 and H200), far below the tensor rate.
//
// gpucast's GEMM is C[m,n] = A[m,k] B[k,n] as PyTorch's A @ B and F.linear call it: the leading
// dimensions are k (A, or B stored transposed) and n (B and C); m is never one.
#include "common/dtype.h"
#include "workloads/op.h"

namespace gpucast::models {

// Tensor rate the narrow-load fallback kernels reach, as a share of the aligned path's (dev
// constants: the compute-bound unaligned GEMMs of the broad validation set's dev split ran 4-5x
// longer than the aligned model in 16-bit types, about 3x in tf32, on both Hopper GPUs).
constexpr double kUnaligned16BitEfficiency = 0.22;
constexpr double kUnalignedTf32Efficiency = 0.33;

// True when n and k are whole 16-byte vectors of the operand type.
[[nodiscard]] bool gemm_operands_aligned(const wl::GemmOp& g);

// Factor on the tensor path's efficiency: 1 for aligned operands or types without a tensor path
// here (fp32 runs SIMT kernels, fp8 refuses unaligned shapes), the fallback's share otherwise.
[[nodiscard]] double gemm_alignment_efficiency(const wl::GemmOp& g);

}  // namespace gpucast::models
