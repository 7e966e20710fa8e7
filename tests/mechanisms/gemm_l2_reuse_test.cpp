// How L2 reuse works for GEMM operands (models/gemm_model.h, device/device.h): operands that fit in
// the L2's reusable share are read from DRAM once; one byte more and tiles reread panels.
#include <catch2/catch.hpp>

#include "models/gemm_model.h"

using namespace gpucast;

namespace {
models::GemmShape square(double n) {
  models::GemmShape g;
  g.m = g.n = g.k = n;
  g.in = g.out = DataType::bf16;
  return g;
}
}  // namespace

SCENARIO("GEMM operands that fit in the reusable L2 are read once") {
  const auto g = square(1024);  // A and B: 2 MiB each, C: 2 MiB
  const double operands = 2.0 * 1024 * 1024 * 2;
  const double c = 1024.0 * 1024 * 2;
  // 128 tiles of 128x64 run two at a time: without reuse each wave would reread its panels.
  CHECK(models::gemm_dram_bytes(g, 128, 64, 2, operands) == Approx(operands + c));
  CHECK(models::gemm_dram_bytes(g, 128, 64, 2, operands - 1) > 1.5 * (operands + c));
}

SCENARIO("without reuse a wave of tiles reads at most every panel once per tile row and column") {
  const auto g = square(1024);
  const double a = 1024.0 * 1024 * 2, b = a, c = a;
  // One tile at a time of 1024 x 64 columns: 16 column tiles each read all of A (a) and a 1/16 of B.
  const double bytes = models::gemm_dram_bytes(g, 1024, 64, 1, 0);
  CHECK(bytes == Approx(16 * a + b + c));
}
