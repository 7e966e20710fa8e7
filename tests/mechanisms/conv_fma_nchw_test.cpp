// FP32 convolutions with TF32 off on Hopper, wider than 16 channels (models/conv_fma_nchw.cpp): the
// input (and a filter wider than 1x1) transposed to NCHW, an SIMT implicit GEMM, the output
// transposed back; for 1x1 filters the 256x64 tile once its grid covers half the SMs, else 32x32; for
// wider ones 256x64 where the output channels are exactly its width (k = 64) and its grid fills the SMs, else
// 128x32 over 1.5 to 8 SMs' worth of its blocks, else 32x32; per K step an SM pays its
// busiest scheduler's warps' FMAs plus the step's latency.
#include <catch2/catch.hpp>

#include <cmath>

#include "models/conv_fma_nchw.h"
#include "models/op_model.h"
#include "support/conv_builder.h"
#include "support/gpu_builder.h"

using namespace gpucast;

namespace {
wl::Conv2dOp conv(wl::Count n, wl::Count c, wl::Count hw, wl::Count k, wl::Count r) {
  return test::conv_builder{}
      .batch(n)
      .channels(c)
      .image(hw)
      .filters(k)
      .kernel(r)
      .dtype(DataType::fp32)
      .allow_tf32(false)
      .build();
}
}  // namespace

SCENARIO("a 1x1 FP32 convolution transposes the input and the output; a 3x3 one the filter too") {
  const device::Device gpu(test::gpu_builder{}.build());  // Hopper, 100 SMs
  // Two images: a 1x1 filter over one image of up to 56 x 56 pixels runs the direct kernel instead.
  CHECK(models::plan_op(conv(2, 64, 56, 256, 1), gpu).front().kernels.size() == 3);
  CHECK(models::plan_op(conv(2, 64, 56, 256, 3), gpu).front().kernels.size() == 4);
}

SCENARIO("the 256x64 tile runs once its grid covers half the SMs") {
  // 100 SMs: 50 blocks of 256x64 pick it, 49 do not. 1x1, k = 64: blocks = ceil(n*hw*hw / 256).
  const device::Device gpu(test::gpu_builder{}.build());
  // 50 * 256 = 12800 pixels = 8 x 40 x 40; 49 blocks: 12544 = 1 x 112 x 112.
  CHECK(models::fma_nchw_tile(conv(8, 64, 40, 64, 1), gpu).m == 256);
  CHECK(models::fma_nchw_tile(conv(1, 64, 112, 64, 1), gpu).m == 32);
}

SCENARIO(
    "a lone NCHW block's time grows with its K steps: FMAs at a warp's issue rate plus each step's latency") {
  // Doubling the channels doubles the K steps and the block's serial cycles.
  const device::Device gpu(test::gpu_builder{}.build());
  const auto k1 = models::plan_op(conv(1, 512, 7, 512, 3), gpu).front().kernels[2];
  const auto k2 = models::plan_op(conv(1, 1024, 7, 512, 3), gpu).front().kernels[2];
  CHECK(k2.fixed_cycles == Approx(2 * k1.fixed_cycles));
  // 32x32 tile, 64 threads: 16 outputs x 8 FMAs per thread per step; 512 x 9 / 8 = 576 steps.
  CHECK(k1.fixed_cycles > 576 * 128);
}

SCENARIO(
    "the NCHW kernel's FMA share is of the raw issue rate: the description's FP32 efficiency does not lower "
    "it") {
  // The builder's FP32 efficiency (its Hopper default) against one of 0.5.
  const device::Device full(test::gpu_builder{}.build());
  const device::Device half(test::gpu_builder{}.set("efficiency.fp32", "0.5").build());
  const auto op = conv(32, 1024, 14, 256, 1);
  const auto k_full = models::plan_op(op, full).front().kernels[1];
  const auto k_half = models::plan_op(op, half).front().kernels[1];
  CHECK(k_full.pipe_flops / (full.pipe_rate(models::Pipe::fp32, DataType::fp32) * k_full.pipe_efficiency) ==
        Approx(k_half.pipe_flops /
               (half.pipe_rate(models::Pipe::fp32, DataType::fp32) * k_half.pipe_efficiency)));
}

SCENARIO("a 3x3 filter with k > 64 runs 128x32 above 1.5 SMs' worth of its blocks and up to 8") {
  // 100 SMs, k = 65 (three 128x32 columns): blocks = ceil(n*hw*hw / 128) x 3; more than 150 and at
  // most 800 run it.
  const device::Device gpu(test::gpu_builder{}.build());
  auto tile_m = [&](wl::Count hw) { return models::fma_nchw_tile(conv(1, 64, hw, 65, 3), gpu).m; };
  CHECK(tile_m(81) == 128);   // 6,561 pixels: 52 x 3 = 156 blocks
  CHECK(tile_m(80) == 32);    // 6,400 pixels: 50 x 3 = 150 blocks
  CHECK(tile_m(184) == 128);  // 33,856 pixels: 265 x 3 = 795 blocks
  CHECK(tile_m(185) == 32);   // 34,225 pixels: 268 x 3 = 804 blocks
  CHECK(models::fma_nchw_tile(conv(32, 64, 56, 256, 3), gpu).m != 256);
}

SCENARIO("a 3x3 filter of exactly 64 output channels runs the 256x64 tile once its grid fills the SMs") {
  // 100 SMs, k = 64: blocks of 256x64 = ceil(n*hw*hw / 256); 100 run it, 99 do not; k = 65 and 48 never do.
  const device::Device gpu(test::gpu_builder{}.build());
  CHECK(models::fma_nchw_tile(conv(16, 64, 40, 64, 3), gpu).m == 256);  // 25,600 pixels: 100 blocks
  CHECK(models::fma_nchw_tile(conv(1, 64, 159, 64, 3), gpu).m != 256);  // 25,281 pixels: 99 blocks
  CHECK(models::fma_nchw_tile(conv(16, 64, 40, 65, 3), gpu).m != 256);
  CHECK(models::fma_nchw_tile(conv(16, 64, 40, 48, 3), gpu).m != 256);
}

SCENARIO(
    "NCHW blocks queue on the schedulers: two 32x32 blocks an SM cost a K step what one does, three more") {
  // 32x32 tiles, 2 warps each: 2 blocks put one warp on each of the 4 schedulers, 3 put two on some.
  // 100 SMs, k = 32: one block per 32 pixels; 1x1 filters of 1,024 channels (128 K steps).
  const device::Device gpu(test::gpu_builder{}.build());
  auto nchw_kernel = [&](wl::Count pixels_side) {
    const auto op = conv(1, 1024, pixels_side, 32, 1);
    return models::plan_op(op, gpu).front().kernels[1];
  };
  auto step_cycles_per_sm = [&](const models::KernelPlan& k, double resident) {
    return resident * k.pipe_flops / (gpu.pipe_rate(models::Pipe::fp32, DataType::fp32) * k.pipe_efficiency);
  };
  const auto one = nchw_kernel(56);    // 3,136 pixels: 98 blocks, one an SM
  const auto two = nchw_kernel(80);    // 6,400 pixels: 200 blocks, two an SM
  const auto three = nchw_kernel(97);  // 9,409 pixels: 295 blocks, three an SM
  CHECK(one.blocks == 98);
  CHECK(two.blocks == 200);
  CHECK(three.blocks == 295);
  CHECK(step_cycles_per_sm(two, 2) == Approx(step_cycles_per_sm(one, 1)));
  CHECK(step_cycles_per_sm(three, 3) > 1.5 * step_cycles_per_sm(one, 1));
}

SCENARIO("the 128x32 tile's FMA share lies between the fitted tiles' on the log of a thread's outputs") {
  // 32x32 / 64 threads: 16 outputs, share 0.419; 256x64 / 128: 128 outputs, 0.621; 128x32 / 128: 32
  // outputs, a third of the way on the log: 0.419 + 0.202 / 3. A step's warp cycles: 256 FMAs over it.
  const device::Device gpu(test::gpu_builder{}.build());
  const auto op = conv(1, 64, 139, 32, 3);  // 151 blocks of 128x32; 64 x 9 / 8 = 72 K steps
  REQUIRE(models::fma_nchw_tile(op, gpu).m == 128);
  const auto k = models::plan_op(op, gpu).front().kernels[2];
  const double exposed_cycles = 91;
  CHECK(k.fixed_cycles / 72 - exposed_cycles == Approx(256 / (0.419 + (0.621 - 0.419) / 3)));
}
