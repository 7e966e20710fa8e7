// cuDNN's sm90 implicit-GEMM convolution kernels fetch their operand tiles with TMA bulk copies
// (models/conv_model.cpp marks them bulk_async_loads; sim/kernel_timer.cpp times such loads, see
// tma_bulk_copy_l2_rate_test.cpp); the sm80 mma.sync kernels offered beside them load with cp.async.
// Both plans carry the tiles' whole L2 traffic.
#include <catch2/catch.hpp>

#include <string>

#include "models/op_model.h"
#include "support/chosen_plan.h"
#include "support/conv_builder.h"
#include "support/gpu_builder.h"

using namespace gpucast;

namespace {
// One 64x64 tile: 8x8 outputs (10x10 image, 3x3 filter, no padding, so every tap loads all its rows),
// 64 bf16 channels in and out. K = 9 taps x 64 channels = 576; one tile, so no filter multicast.
wl::Conv2dOp one_tile() {
  return test::conv_builder{}.batch(1).channels(64).image(10).filters(64).kernel(3).pad(0).build();
}
// The tile's operand rows (64 of the input, 64 of the filter) over K, and its 64x64 bf16 output.
constexpr double kTileL2Bytes = (64.0 + 64.0) * 576 * 2 + 64.0 * 64 * 2;
models::KernelPlan kernel_of(const std::vector<models::PlanOption>& options, const std::string& suffix) {
  return test::option_kernel(options, suffix);
}
}  // namespace

SCENARIO("the sm90 kernel loads its tiles with TMA bulk copies") {
  const auto options = models::plan_op(one_tile(), device::Device(test::gpu_builder{}.build()));
  const auto k = kernel_of(options, ": gemm 64x64");
  CHECK(k.bulk_async_loads);
  CHECK(k.l2_bytes == Approx(kTileL2Bytes));
}

SCENARIO("the sm80 mma.sync kernel beside it loads with cp.async") {
  const auto options = models::plan_op(one_tile(), device::Device(test::gpu_builder{}.build()));
  const auto k = kernel_of(options, ": mma.sync gemm 64x64");
  CHECK_FALSE(k.bulk_async_loads);
  CHECK(k.l2_bytes == Approx(kTileL2Bytes));
}
