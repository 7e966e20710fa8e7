// The channels a K step runs beyond a tap's own are zero-filled in shared memory, not loaded
// (models/conv_model.cpp): an implicit-GEMM tile's A bytes through the L2 count the tap's channels,
// while its tensor-core work still counts whole K steps.
#include <catch2/catch.hpp>

#include <string>

#include "models/op_model.h"
#include "support/chosen_plan.h"
#include "support/conv_builder.h"
#include "support/gpu_builder.h"

using namespace gpucast;

namespace {
// One 64x64 tile: 8x8 outputs (10x10 image, 3x3 filter, no padding), 64 filters, bf16.
wl::Conv2dOp one_tile(wl::Count channels) {
  return test::conv_builder{}.batch(1).channels(channels).image(10).filters(64).kernel(3).pad(0).build();
}
constexpr double kOutBytes = 64.0 * 64 * 2;
}  // namespace

SCENARIO("56 channels run one 64-channel K step a tap but load 56 of its channels") {
  // 9 taps x one 64-element step: K = 576 executed either way; A loads 56 of each step's 64.
  const auto c56 = test::option_kernel(one_tile(56), ": gemm 64x64");
  const auto c64 = test::option_kernel(one_tile(64), ": gemm 64x64");
  CHECK(c56.pipe_flops == Approx(c64.pipe_flops));
  CHECK(c64.l2_bytes == Approx((64.0 + 64) * 576 * 2 + kOutBytes));
  CHECK(c56.l2_bytes == Approx((64.0 * 56 / 64 + 64) * 576 * 2 + kOutBytes));
}

SCENARIO("the sm80 kernel's 32-channel steps count their own zero channels") {
  // 40 channels: two 32-element steps a tap (64 executed), 40 loaded; the sm90 kernel's one 64-element
  // step the same. 48 channels: two steps, 48 loaded.
  const auto c40 = test::option_kernel(one_tile(40), ": mma.sync gemm 64x64");
  const auto c48 = test::option_kernel(one_tile(48), ": mma.sync gemm 64x64");
  CHECK(c40.l2_bytes == Approx((64.0 * 40 / 64 + 64) * 576 * 2 + kOutBytes));
  CHECK(c48.l2_bytes == Approx((64.0 * 48 / 64 + 64) * 576 * 2 + kOutBytes));
}
