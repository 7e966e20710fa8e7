// Filter taps that fall in the zero padding around the image gather nothing (models/conv_model.cpp,
// GemmShape::a_loaded_share): a 3x3 filter over a 7x7 map with padding 1 loads 19 of 21 (position,
// tap) pairs per side, so its A tiles move (19/21)^2 of what the same GEMM over a 9x9 map without
// padding moves; the filter tiles and the output are alike.
#include <catch2/catch.hpp>

#include <string>

#include "models/op_model.h"
#include "support/chosen_plan.h"
#include "support/conv_builder.h"
#include "support/gpu_builder.h"

using namespace gpucast;

namespace {
wl::Conv2dOp conv(wl::Count hw, wl::Count pad) {
  return test::conv_builder{}
      .batch(8)
      .channels(64)
      .image(hw)
      .filters(64)
      .kernel(3)
      .dtype(DataType::bf16)
      .pad(pad)
      .build();
}
double l2_bytes(const wl::Conv2dOp& op, const std::string& suffix) {
  return test::option_kernel(op, suffix).l2_bytes;
}
}  // namespace

SCENARIO("a 7x7 map with padding 1 gathers (19/21)^2 of the A tile a 9x9 map without padding does") {
  // Both give 7x7 outputs: the same 392 x 64 x 576 implicit GEMM. Tile 64x64, K steps of 64 bf16.
  const double padded = l2_bytes(conv(7, 1), ": gemm 64x64");
  const double unpadded = l2_bytes(conv(9, 0), ": gemm 64x64");
  const double a_tile_bytes = 64.0 * 576 * 2;
  CHECK(unpadded - padded == Approx((1 - (19.0 / 21) * (19.0 / 21)) * a_tile_bytes));
}

SCENARIO("a 1x1 stride-2 convolution without padding loads every tap") {
  auto strided = conv(14, 0);
  strided.r = strided.s = 1;
  strided.stride = 2;
  auto same = strided;
  same.h = same.w = 13;  // 7x7 outputs either way, all inside
  CHECK(l2_bytes(strided, ": gemm 64x64") == Approx(l2_bytes(same, ": gemm 64x64")));
}
