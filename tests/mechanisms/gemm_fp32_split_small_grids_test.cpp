// cuBLAS's fp32 SIMT GEMMs split K whenever 64x64 tiles of the output would fill under a quarter of
// the SMs, down to one K step of 8 per split, and never run those grids unsplit
// (models/gemm_model.cpp, kFp32SplitMaxFill); larger grids keep the unsplit options.
#include <catch2/catch.hpp>

#include <string>

#include "device/device.h"
#include "models/gemm_model.h"
#include "models/op_model.h"
#include "support/gemm_builder.h"
#include "support/gpu_builder.h"

using namespace gpucast;

namespace {
bool any_unsplit(const std::vector<models::PlanOption>& options) {
  for (const auto& o : options)
    if (o.name.find("split-k") == std::string::npos) return true;
  return false;
}
}  // namespace

SCENARIO("fp32 GEMMs whose 64x64 tiles fill under a quarter of the SMs always split K") {
  const device::Device gpu(test::gpu_builder{}.sms(132).build());
  GIVEN("k = 16: two K steps of 8") {
    // 2048 x 64: 32 tiles of 64x64, under 33 (a quarter of 132); 2112 x 64: 33 tiles.
    const auto small = models::plan_op(test::gemm_op(2048, 64, 16, DataType::fp32), gpu);
    const auto at_quarter = models::plan_op(test::gemm_op(2112, 64, 16, DataType::fp32), gpu);
    THEN("the grid under a quarter runs only split-K options, the one at a quarter may run unsplit") {
      CHECK_FALSE(any_unsplit(small));
      CHECK(small.front().kernels.size() == 2);  // the main kernel and the reduce
      CHECK(any_unsplit(at_quarter));
    }
    THEN("bf16 GEMMs of that shape keep their unsplit options") {
      CHECK(any_unsplit(models::plan_op(test::gemm_op(2048, 64, 16, DataType::bf16), gpu)));
    }
  }
  GIVEN("k = 8: one K step, nothing to split") {
    CHECK(any_unsplit(models::plan_op(test::gemm_op(2048, 64, 8, DataType::fp32), gpu)));
  }
}
