// A 16-bit GEMM whose contiguous dimension (n or k) is no multiple of 8 elements cannot use the
// aligned tensor-core kernels: its tensor rate drops to the measured misaligned share.
#include <catch2/catch.hpp>

#include "sim/simulator.h"
#include "support/gpu_builder.h"

using namespace gpucast;

namespace {
double gemm_us(sim::OpPredictor& p, wl::Count m, wl::Count n, wl::Count k) {
  return p.predict(wl::GemmOp{m, n, k, 1, DataType::bf16, DataType::bf16}).exec_us;
}
}  // namespace

SCENARIO("an unaligned n or k slows a compute-bound bf16 GEMM several-fold; a multiple of 8 does not") {
  sim::OpPredictor p(test::gpu_builder{}.build());
  const double aligned = gemm_us(p, 8192, 8192, 8192);
  CHECK(gemm_us(p, 8192, 8192 + 8, 8192) == Approx(aligned).epsilon(0.05));
  CHECK(gemm_us(p, 8192, 8192 + 1, 8192) > 3 * aligned);  // n unaligned
  CHECK(gemm_us(p, 8192, 8192, 8192 + 1) > 3 * aligned);  // k unaligned
  THEN("the kernel says it is the unaligned one") {
    CHECK(
        p.predict(wl::GemmOp{8192, 8193, 8192, 1, DataType::bf16, DataType::bf16}).option.find("unaligned") !=
        std::string::npos);
  }
}

SCENARIO("fp32 GEMMs without tensor cores have no alignment penalty") {
  sim::OpPredictor p(test::gpu_builder{}.build());
  const double aligned = p.predict(wl::GemmOp{4096, 4096, 4096, 1, DataType::fp32, DataType::fp32}).exec_us;
  const double odd = p.predict(wl::GemmOp{4096, 4097, 4096, 1, DataType::fp32, DataType::fp32}).exec_us;
  CHECK(odd == Approx(aligned).epsilon(0.05));  // one more column of tiles, no rate change
}
