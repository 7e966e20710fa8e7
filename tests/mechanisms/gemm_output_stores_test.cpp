// A GEMM tile kernel's output tiles are stores (KernelPlan::dram_write_bytes), timed at the store
// rate; the tile read efficiency (kTileReadEfficiency) is its operand reads' alone
// (models/gemm_model.cpp).
#include <catch2/catch.hpp>

#include "device/device.h"
#include "models/op_model.h"
#include "support/gemm_builder.h"
#include "support/gpu_builder.h"

using namespace gpucast;

SCENARIO("a GEMM's output tiles are its stores: m x n elements of the output type") {
  const device::Device gpu(test::gpu_builder{}.build());
  // 16,384 x 256 x 64 bf16: one K step, no split; the output is 8 MB, the operands 2.1 MB.
  const auto g = test::gemm_op(16384, 256, 64);
  const auto option = models::plan_op(g, gpu).front();
  REQUIRE(option.kernels.size() == 1);
  const auto& k = option.kernels.front();
  CHECK(k.dram_write_bytes * k.blocks == Approx(16384.0 * 256 * 2));
  CHECK(k.dram_bytes > k.dram_write_bytes);  // the operands are read besides
}
