// Convolution as implicit GEMM (models/conv_model.cpp): a 1x1 convolution is exactly a GEMM; channels
// that are not a multiple of 8 are padded by kernels of their own first; a 3-channel 3x3 filter
// executes whole K steps per tap.
#include <catch2/catch.hpp>

#include "models/op_model.h"
#include "sim/op_predictor.h"
#include "support/conv_builder.h"
#include "support/gemm_builder.h"
#include "support/gpu_builder.h"

using namespace gpucast;

namespace {
wl::Conv2dOp conv(wl::Count c, wl::Count r) {
  return test::conv_builder{}
      .batch(32)
      .channels(c)
      .image(56)
      .filters(256)
      .kernel(r)
      .dtype(DataType::bf16)
      .build();
}
}  // namespace

SCENARIO("a 1x1 convolution takes exactly the time of its GEMM") {
  sim::OpPredictor p(test::gpu_builder{}.build());
  const wl::GemmOp g = test::gemm_op(32 * 56 * 56, 256, 64);
  CHECK(p.predict(conv(64, 1)).duration_us == Approx(p.predict(g).duration_us));
}

SCENARIO("channels pad to a multiple of 8 with kernels of their own") {
  // cuDNN zeroes a padded copy of the input and of the filter, then copies the channels in.
  sim::OpPredictor p(test::gpu_builder{}.build());
  CHECK(p.predict(conv(8, 3)).kernels.size() == 1);
  CHECK(p.predict(conv(12, 3)).kernels.size() == 5);
  CHECK(p.predict(conv(7, 7)).kernels.size() == 5);  // below one vector bf16 pads at 7x7 only
}

SCENARIO("a 3-channel 7x7 filter executes 49 whole K steps, as a 32-channel one does") {
  // Each tap's 3 channels pad to 8, then to one 32-element K step of the few-channel (mma.sync)
  // kernel: 49 x 32 = 1,568 executed, 147 useful.
  const device::Device gpu = test::gpu_builder{}.build();
  const auto narrow = models::plan_op(conv(3, 7), gpu).front().kernels.back();
  const auto wide = models::plan_op(conv(32, 7), gpu).front().kernels.back();
  CHECK(narrow.pipe_flops == Approx(wide.pipe_flops));
}

SCENARIO(
    "an implicit-GEMM convolution's tiles load their own A tile and share the filter; a GEMM's share A") {
  // cuDNN's sm90 convolution kernels multicast the filter (B) tile across a 2-CTA cluster along M,
  // so a 256x128 tile reads all 256 rows of A and 64 of B's 128 per K step, where cuBLAS's 2-CTA
  // cluster multicasts half of A's rows and none of B's.
  const device::Device gpu = test::gpu_builder{}.build();
  wl::GemmOp g;
  g.m = 32 * 56 * 56;
  g.n = 256;
  g.k = 64 * 9;
  g.dtype = g.out_dtype = DataType::bf16;
  auto tile_256x128 = [](const std::vector<models::PlanOption>& options) {
    for (const auto& o : options)
      if (o.name.size() >= 12 && o.name.compare(o.name.size() - 12, 12, "gemm 256x128") == 0)
        return o.kernels.back();
    FAIL("no 256x128 option");
    return models::KernelPlan{};
  };
  const auto conv_kernel = tile_256x128(models::plan_op(conv(64, 3), gpu));
  const auto gemm_kernel = tile_256x128(models::plan_op(g, gpu));
  CHECK(conv_kernel.pipe_flops == Approx(gemm_kernel.pipe_flops));  // the same executed K
  // Padding 1 around 56x56: 166 of 168 (position, tap) pairs per side gather (conv_padding_taps_test.cpp).
  const double a_rows = 256.0 * (166.0 / 168) * (166.0 / 168);
  CHECK(conv_kernel.l2_bytes - gemm_kernel.l2_bytes == Approx((a_rows + 64 - 128 - 128) * 576 * 2));
}
