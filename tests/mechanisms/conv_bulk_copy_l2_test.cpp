// cuDNN's sm90 implicit-GEMM convolution kernels fetch their operand tiles with TMA bulk copies, which
// the L2 serves at 1.1x the rate of the calibration's re-read benchmark (models/conv_model.cpp): their
// L2 bytes are charged at 1 / 1.1 of what the tiles move. The sm80 mma.sync kernels offered beside
// them load with cp.async and are charged in full.
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
double l2_bytes_of(const std::vector<models::PlanOption>& options, const std::string& suffix) {
  return test::option_kernel(options, suffix).l2_bytes;
}
}  // namespace

SCENARIO("the sm90 kernel's L2 bytes are charged at 1 / 1.1 of its tiles' traffic") {
  const auto options = models::plan_op(one_tile(), device::Device(test::gpu_builder{}.build()));
  CHECK(l2_bytes_of(options, ": gemm 64x64") == Approx(kTileL2Bytes / 1.1));
}

SCENARIO("the sm80 mma.sync kernel beside it is charged its tiles' whole L2 traffic") {
  const auto options = models::plan_op(one_tile(), device::Device(test::gpu_builder{}.build()));
  CHECK(l2_bytes_of(options, ": mma.sync gemm 64x64") == Approx(kTileL2Bytes));
}
