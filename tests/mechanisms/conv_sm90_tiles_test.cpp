// cuDNN's Hopper implicit-GEMM convolution kernels (models/conv_model.cpp): their own tile shapes
// (sm90_xmma_fprop_implicit_gemm_..._tilesize<M>x<N>x<K>_..., not cuBLAS's), and the filter (B) tile
// multicast to both CTAs of a 2-CTA cluster along M, which needs a second tile along M.
#include <catch2/catch.hpp>

#include <string>

#include "models/gemm_model.h"
#include "models/op_model.h"
#include "support/conv_builder.h"
#include "support/gpu_builder.h"

using namespace gpucast;

namespace {
wl::Conv2dOp conv(wl::Count n, wl::Count hw, DataType dtype) {
  return test::conv_builder{}
      .batch(n)
      .channels(128)
      .image(hw)
      .filters(64)
      .kernel(3)
      .dtype(dtype)
      .pad(1)
      .build();
}

bool offers(const std::vector<models::PlanOption>& options, const std::string& tile) {
  for (const auto& o : options)
    if (o.name.find(": gemm " + tile) != std::string::npos) return true;
  return false;
}

double l2_bytes_of(const std::vector<models::PlanOption>& options, const std::string& tile) {
  for (const auto& o : options)
    if (o.name.size() >= tile.size() && o.name.compare(o.name.size() - tile.size(), tile.size(), tile) == 0)
      return o.kernels.back().l2_bytes;
  FAIL("no option ending in " << tile);
  return 0;
}
}  // namespace

SCENARIO("a Hopper bf16 convolution tries cuDNN's tiles only: 256x64 yes, cuBLAS's 320x128 and 192x128 no") {
  const device::Device gpu(test::gpu_builder{}.build());  // Hopper
  const auto options = models::plan_op(conv(32, 56, DataType::bf16), gpu);
  CHECK(offers(options, "256x64"));
  CHECK(offers(options, "128x128"));
  CHECK_FALSE(offers(options, "320x128"));
  CHECK_FALSE(offers(options, "192x128"));
}

SCENARIO(
    "a Hopper tf32 convolution tries cuDNN's tf32 tiles: 64x32, 64x64, 128x32, 256x64, 128x192; not "
    "192x128") {
  const device::Device gpu(test::gpu_builder{}.tensor_tflops("tf32", 400).build());
  auto op = conv(32, 56, DataType::tf32);
  op.k = 320;  // wide enough for a 192-column tile
  const auto options = models::plan_op(op, gpu);
  for (const char* tile : {"64x32", "64x64", "128x32", "256x64", "128x192"}) CHECK(offers(options, tile));
  CHECK_FALSE(offers(options, "192x128"));
  CHECK_FALSE(offers(options, "256x128"));
}

SCENARIO("two 64-row tiles along M multicast the filter tile; one tile along M reads all of it") {
  const device::Device gpu(test::gpu_builder{}.build());
  // 1 x 8 x 16 output pixels: M = 128, two 64-row tiles; 1 x 8 x 8: M = 64, one tile.
  auto two = conv(1, 8, DataType::bf16);
  two.w = 16;
  const auto one = conv(1, 8, DataType::bf16);
  const double k_exec = 9 * 128;  // 3x3 taps of 128 channels, two 64-element K steps each
  const double out = 64.0 * 64 * 2;
  // Padding 1: per side 22 of 24 (position, tap) pairs lie inside an 8-wide map, 46 of 48 inside a
  // 16-wide one; the A tile gathers only those (conv_padding_taps_test.cpp).
  const double a_two = 64.0 * (22.0 / 24) * (46.0 / 48);
  const double a_one = 64.0 * (22.0 / 24) * (22.0 / 24);
  CHECK(l2_bytes_of(models::plan_op(two, gpu), ": gemm 64x64") == Approx((a_two + 32) * k_exec * 2 + out));
  CHECK(l2_bytes_of(models::plan_op(one, gpu), ": gemm 64x64") == Approx((a_one + 64) * k_exec * 2 + out));
}
