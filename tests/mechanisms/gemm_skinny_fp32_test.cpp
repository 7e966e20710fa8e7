// cuBLAS's skinny fp32 kernel (models/gemm_model.cpp, gemmSN): a linear layer's forward (x @ W^T) of 2
// to 11 rows in fp32 runs one kernel whose blocks of 128 threads each take 16 output columns over all
// of K, one block an SM at a time, streaming their weight rows with a fixed number of bytes in flight:
// a chain of round trips. One row (GEMV), 12 rows, the other layouts, 16-bit types and batched products
// keep their options.
#include <catch2/catch.hpp>

#include <cmath>

#include "models/gemm_model.h"
#include "support/gemm_builder.h"
#include "support/gpu_builder.h"

using namespace gpucast;

namespace {
std::vector<models::PlanOption> plan(wl::Count m, bool transpose_b, DataType t = DataType::fp32) {
  const device::Device gpu(test::gpu_builder{}.build());
  const auto op = test::gemm_builder{}.mnk(m, 4096, 4096).dtype(t).transpose_b(transpose_b).build();
  return models::GemmModel{}.plan(wl::Op{op}, gpu);
}
bool skinny(const std::vector<models::PlanOption>& options) {
  return options.size() == 1 && options.front().name == "skinny fp32 gemm (gemmSN)";
}
}  // namespace

SCENARIO("a linear layer's fp32 forward of 2 to 11 rows runs the skinny kernel, and only it") {
  CHECK(skinny(plan(2, true)));
  CHECK(skinny(plan(11, true)));
  CHECK_FALSE(skinny(plan(1, true)));   // the GEMV kernels
  CHECK_FALSE(skinny(plan(12, true)));  // an SIMT GEMM
  CHECK_FALSE(skinny(plan(4, false)));  // the nn layout: cuBLAS picks among several kernels there
  CHECK_FALSE(skinny(plan(4, true, DataType::bf16)));
  const device::Device gpu(test::gpu_builder{}.build());
  auto batched = test::gemm_builder{}.mnk(4, 4096, 4096).dtype(DataType::fp32).transpose_b().build();
  batched.batch = 2;
  CHECK_FALSE(skinny(models::GemmModel{}.plan(wl::Op{batched}, gpu)));
}

SCENARIO("the skinny kernel's blocks take 16 columns each, one an SM, their weight rows in round trips") {
  const auto k = plan(4, true).front().kernels.at(0);
  CHECK(k.blocks == 4096 / 16);
  CHECK(k.max_blocks_per_sm == 1);
  // 16 weight rows of 4,096 fp32 = 256 KB a block, brought in round trips of its in-flight bytes.
  CHECK(k.dram_rounds == std::ceil(16 * 4096 * 4 / k.bytes_in_flight));
  CHECK(k.bytes_in_flight > 0);
}
