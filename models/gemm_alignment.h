#pragma once
// Which cuBLAS path a GEMM takes by the alignment of its operands. cuBLAS runs its fast kernels
// (Hopper: TMA loads and wgmma, "nvjet"; Ampere: cp.async 16-byte loads) only when every operand's
// leading dimension is a multiple of 16 bytes. Otherwise it falls back to CUTLASS kernels with
// narrow loads, far below the tensor rate. Which fallback, by the largest power-of-two element
// count that divides every leading dimension (the profiles of the H100 and H200 validation sets'
// dev and calibration splits):
//   - 16-bit, some leading dimension odd (align1): the sm75 "s1688gemm ... align1" kernels;
//   - 16-bit, every leading dimension even (align2/align4): the sm80 "s16816gemm ... align2" kernels,
//     whose 4-byte cp.async loads run well above align1's (gemm-0856, 2500^3 bf16);
//   - tf32: the sm80 "s1688gemm ... align1" kernels.
//
// gpucast's GEMM is C[m,n] = A[m,k] B[k,n] on row-major tensors; an operand stored transposed
// (GemmOp::transpose_a / transpose_b) changes its leading dimension: A's is k (m when stored
// transposed, as a weight gradient's g^T), B's is n (k when stored transposed, as a linear layer's
// W^T), C's is n. Which operand is unaligned decides whether the fallback runs (an odd vocabulary
// sends a linear layer's forward there through C alone, its weight gradient through A^T alone);
// its rate then follows the layout: with B stored transposed cuBLAS runs the "tn"/"tt" variants of
// the align1 kernels, which run bf16 slower than the "nn"/"nt" ones.
#include "common/dtype.h"
#include "workloads/op.h"

namespace gpucast::models {

// The fallback kernels run on warp-level mma.sync (GemmShape::warp_mma: the mma_sync pipe's rate,
// its K step, no clusters); their align1/align2 loads (one or two elements per load instead of a
// 16-byte vector) reach only this share of that rate (dev constants: the compute-bound unaligned
// GEMMs of the broad validation set's dev split, 16-bit and tf32, H100 and H200; the 16-bit share
// refitted once the small and short-K shapes had their own mechanisms (gemm_model.cpp: WMMA tiles,
// K-step waits, exposed epilogue) on the H100 tuning sets and the dev split: 0.24 -> 0.25, gemm
// MAPE tuning 10.8 / 10.2% -> 10.6 / 10.0%, dev H100 / H200 7.18 / 8.76% -> 7.11 / 8.71%; 0.26 gave
// 10.4 / 10.0%, 7.10 / 8.78%).
constexpr double kUnaligned16BitEfficiency = 0.25;
constexpr double kUnalignedTf32Efficiency = 0.44;
// 16-bit GEMMs whose leading dimensions are all even (align2 and align4): the sm80 s16816 align2
// kernels' share of the mma_sync rate (dev: gemm-0856, 2500^3 bf16, 192-194 us on the H100 and
// H200, the only such case outside the test split).
constexpr double kEvenUnaligned16BitEfficiency = 0.39;
// The bf16 align1 kernels' rate when B is stored transposed (cuBLAS's "tn"/"tt" variants,
// cutlass_75_tensorop_bf16_s1688gemm_bf16_*_tn_align1), as a share of the other layouts'.
// Calibration: validation/runs/h100-sxm/gemm_align.json's four x @ W^T forwards over GPT-2's
// 50257-word vocabulary (93-100 TFLOP/s, 1.36-1.46x the nn-layout prediction, while the same
// shapes' nn and A^T gradients run at 134-154, 0.88-0.92x), with the dev and calibration splits'
// bf16 B-transposed cases (gemm-0767 1.11-1.19x, gemm-0952 1.41-1.51x, H100 and H200). The fp16
// variants of these kernels (dev and calibration: 0.71-1.34x, geometric mean 1.08x) and tf32 keep
// the common rate. The share holds only where B^T's own rows are aligned (its leading dimension k a
// whole 16-byte vector, as in those forwards, where C alone is unaligned): the H100 tuning sets'
// bf16 B^T GEMMs with an odd k (509x8191x8191, 2039x8191x509, 4093x127x8191, 8191x12281x127:
// cutlass_75_..._128x128_tn_align1 at 121-134 TFLOP/s) run at the common rate (predicted 15-37%
// too slow with the share; gemm MAPE on the tuning sets 11.0 / 10.6% -> 10.8 / 10.2%, dev split
// H100 / H200 7.23 / 8.75% -> 7.18 / 8.76%).
constexpr double kTransposedBBf16FallbackShare = 0.75;
// The fp16 align1 kernels with B stored transposed (cutlass_75_tensorop_*s1688gemm_f16_*_tn_align1)
// run below the other layouts too, whatever k: on the H100 tuning sets (kernels-tuning*.json, all
// dev) the eleven fp16 B^T align1 GEMMs above 15 us (all with an odd k: 1021x2039x2039,
// 4093x509x2039, 12281x8191x12281, 127x8191x2039, ...) were predicted 3-18% too fast (mean -12.6%)
// at the common rate, while the nn ones were predicted -2 / 0% on average, as were the dev split's
// gemm-0790 (509x4093x251 B^T, -17 / -18% H100 / H200) and gemm-0786 (12281x2039x2039 B^T, -7.5 /
// -10%). Fit on the dev split and the tuning sets (calibrated H100 / H200 gemm MAPE, tuning /
// tuning2): 1 (common rate): 6.80 / 8.08%, 10.13 / 9.79%; 0.90: 6.72 / 7.96%, 10.09 / 9.58%; 0.88:
// 6.73 / 7.97%, 10.08 / 9.56%; 0.85: 6.75 / 7.98%, 10.06 / 9.58%. 0.88.
constexpr double kTransposedBFp16FallbackShare = 0.88;

// The fallback's rate is set by its narrow loads, not by the mma.sync pipe's sustained rate: the
// same kernels run at the same speed on the H100 and the H200 (dev and calibration splits: median
// H200/H100 time 1.004 over the 18 fallback GEMMs above 40 us) although the H200's calibrated
// mma.sync rate is 9% higher (efficiency.mma_sync 0.629 against 0.574). On Hopper the shares above
// therefore apply to the mma.sync rate at this reference efficiency of the nominal tensor peak (the
// Hopper architecture default, hardware/catalog/architectures/hopper.toml, which the H100's
// calibration also measures), whatever a description's own mma.sync efficiency.
constexpr double kFallbackReferenceMmaSyncEfficiency = 0.574;

// Each operand's leading dimension (elements between consecutive rows as stored).
struct GemmLeadingDims {
  wl::Count a = 0, b = 0, c = 0;
};
[[nodiscard]] GemmLeadingDims gemm_leading_dims(const wl::GemmOp& g);

// The largest power of two (in elements, at most one 16-byte vector) dividing every operand's
// leading dimension: the vector width the library's kernels can load.
[[nodiscard]] double gemm_alignment_elements(const wl::GemmOp& g);

// True when every operand's leading dimension is a whole 16-byte vector of the operand type.
[[nodiscard]] bool gemm_operands_aligned(const wl::GemmOp& g);

// True when the fallback runs the sm75 align1 kernels (16-bit operands, some leading dimension odd):
// CUTLASS 2.x Turing GEMMs, whose K loop stages operands through registers (gemm_model.cpp).
[[nodiscard]] bool gemm_fallback_is_sm75_align1(const wl::GemmOp& g);

// Factor on the fallback kernel's mma.sync rate: 1 for aligned operands or types without a tensor
// path here (fp32 runs SIMT kernels, fp8 refuses unaligned shapes), the narrow loads' share otherwise.
[[nodiscard]] double gemm_alignment_efficiency(const wl::GemmOp& g);

}  // namespace gpucast::models
