#include "models/gemm_alignment.h"

#include <algorithm>
#include <cmath>

namespace gpucast::models {
namespace {
constexpr double kAlignmentBytes = 16;  // cuBLAS's vector-load alignment for its fast kernels (library fact)
constexpr double kAlign2 = 2;           // elements per load of the sm80 align2 kernels (library fact)

double vector_elements(DataType t) {
  return std::max(1.0, kAlignmentBytes / bytes_per_element(t));
}
}  // namespace

GemmLeadingDims gemm_leading_dims(const wl::GemmOp& g) {
  return {g.transpose_a ? g.m : g.k, g.transpose_b ? g.k : g.n, g.n};
}

double gemm_alignment_elements(const wl::GemmOp& g) {
  const GemmLeadingDims ld = gemm_leading_dims(g);
  double align = vector_elements(g.dtype);
  for (const wl::Count d : {ld.a, ld.b, ld.c})
    while (align > 1 && std::fmod(static_cast<double>(d), align) != 0) align /= 2;
  return align;
}

bool gemm_operands_aligned(const wl::GemmOp& g) {
  return gemm_alignment_elements(g) >= vector_elements(g.dtype);
}

bool gemm_fallback_is_sm75_align1(const wl::GemmOp& g) {
  return (g.dtype == DataType::bf16 || g.dtype == DataType::fp16) && gemm_alignment_elements(g) < kAlign2;
}

double gemm_alignment_efficiency(const wl::GemmOp& g) {
  if (gemm_operands_aligned(g)) return 1;
  const bool align1 = gemm_alignment_elements(g) < kAlign2;
  const double layout =
      align1 && g.transpose_b && g.dtype == DataType::bf16 &&
              std::fmod(static_cast<double>(gemm_leading_dims(g).b), vector_elements(g.dtype)) == 0
          ? kTransposedBBf16FallbackShare
      : align1 && g.transpose_b && g.dtype == DataType::fp16 ? kTransposedBFp16FallbackShare
                                                             : 1;
  switch (g.dtype) {
    case DataType::bf16:
    case DataType::fp16:
      return align1 ? kUnaligned16BitEfficiency * layout : kEvenUnaligned16BitEfficiency;
    case DataType::tf32:
      return kUnalignedTf32Efficiency;
    default:
      return 1;
  }
}

}  // namespace gpucast::models
