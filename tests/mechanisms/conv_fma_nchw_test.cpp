// FP32 convolutions with TF32 off on Hopper, wider than 16 channels (models/conv_fma_nchw.cpp): the
// input (and a filter wider than 1x1) transposed to NCHW, an SIMT implicit GEMM, the output
// transposed back; the 256x64 tile once its grid covers half the SMs, else 32x32; one block alone on
// an SM pays every K step's FMAs at one instruction per clock per warp plus the step's latency.
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
  CHECK(models::plan_op(conv(1, 64, 56, 256, 1), gpu).front().kernels.size() == 3);
  CHECK(models::plan_op(conv(1, 64, 56, 256, 3), gpu).front().kernels.size() == 4);
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
