// cuBLAS's fast GEMM kernels need 16-byte aligned leading dimensions (models/gemm_alignment.h):
// n and k are leading dimensions of PyTorch's A @ B, m never is. The 16-bit fallback's tile set.
#include <catch2/catch.hpp>

#include "models/gemm_alignment.h"
#include "sim/op_predictor.h"
#include "support/gemm_builder.h"
#include "support/gpu_builder.h"

using namespace gpucast;

namespace {
wl::GemmOp gemm(wl::Count m, wl::Count n, wl::Count k, DataType t = DataType::bf16) {
  return test::gemm_op(m, n, k, t);
}
}  // namespace

SCENARIO("bf16 operands are aligned at multiples of 8 elements in n and k, not at 4,092 or 4,100") {
  CHECK(models::gemm_operands_aligned(gemm(4096, 4096, 4096)));
  CHECK(models::gemm_operands_aligned(gemm(4093, 4096, 4096)));  // m is no leading dimension
  CHECK_FALSE(models::gemm_operands_aligned(gemm(4096, 4092 + 2, 4096)));
  CHECK_FALSE(models::gemm_operands_aligned(gemm(4096, 4096, 4100 + 2)));
}

SCENARIO("tf32 operands (4-byte elements) are aligned at multiples of 4: k = 4,100 is, 4,098 is not") {
  CHECK(models::gemm_operands_aligned(gemm(4096, 4096, 4100, DataType::tf32)));
  CHECK_FALSE(models::gemm_operands_aligned(gemm(4096, 4096, 4098, DataType::tf32)));
}

SCENARIO("an unaligned compute-bound bf16 GEMM runs the fallback kernels, several times slower") {
  const sim::OpPredictor p(test::gpu_builder{}.build());
  const double aligned = p.rank_options(gemm(8192, 8192, 8192)).front().duration_us;
  const double unaligned = p.rank_options(gemm(8192, 8191, 8192)).front().duration_us;
  CHECK(unaligned > 3 * aligned);
}

SCENARIO("the 16-bit fallback runs only its own tiles: 64x64, 128x128, 256x128 and 128x256") {
  // A small unaligned GEMM that the wgmma path would tile 64x8 or so.
  const sim::OpPredictor p(test::gpu_builder{}.build());
  for (const auto& t : p.rank_options(gemm(127, 4093, 509))) {
    const std::string& name = t.option;
    const bool listed =
        name.find("64x64") != std::string::npos || name.find("128x128") != std::string::npos ||
        name.find("256x128") != std::string::npos || name.find("128x256") != std::string::npos;
    CHECK(listed);
  }
}

SCENARIO("the fallback keeps 64x64 for small problems only: n = 96 may run it, n = 97 not") {
  const sim::OpPredictor p(test::gpu_builder{}.build());
  auto has_64 = [&](const wl::GemmOp& g) {
    for (const auto& t : p.rank_options(g))
      if (t.option.find("64x64") != std::string::npos) return true;
    return false;
  };
  CHECK(has_64(gemm(1021, 96, 509)));
  CHECK_FALSE(has_64(gemm(1021, 97, 509)));
  CHECK(has_64(gemm(1021, 509, 127)));  // a short K
}
