#include "models/gemm_alignment.h"

#include <cmath>

namespace gpucast::models {
namespace {
constexpr double kAlignmentBytes = 16;  // cuBLAS's vector-load alignment for its fast kernels (library fact)
}  // namespace

GemmLeadingDims gemm_leading_dims(const wl::GemmOp& g) {
  return {g.transpose_a ? g.m : g.k, g.transpose_b ? g.k : g.n, g.n};
}

bool gemm_operands_aligned(const wl::GemmOp& g) {
  const double e = bytes_per_element(g.dtype);
  const double per_vector = std::max(1.0, kAlignmentBytes / e);
  const GemmLeadingDims ld = gemm_leading_dims(g);
  for (const wl::Count d : {ld.a, ld.b, ld.c})
    if (std::fmod(static_cast<double>(d), per_vector) != 0) return false;
  return true;
}

double gemm_alignment_efficiency(const wl::GemmOp& g) {
  if (gemm_operands_aligned(g)) return 1;
  switch (g.dtype) {
    case DataType::bf16:
    case DataType::fp16:
      return kUnaligned16BitEfficiency;
    case DataType::tf32:
      return kUnalignedTf32Efficiency;
    default:
      return 1;
  }
}

}  // namespace gpucast::models
