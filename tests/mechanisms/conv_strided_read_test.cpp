// A filter narrower than its stride skips input pixels (models/conv_model.cpp): a 1x1 stride-2
// convolution reads one pixel in four from DRAM once a pixel's channels fill a 32-byte sector;
// narrower pixels share sectors with the skipped ones and the whole row is read.
#include <catch2/catch.hpp>

#include "models/op_model.h"
#include "support/conv_builder.h"
#include "support/gpu_builder.h"

using namespace gpucast;

namespace {
wl::Conv2dOp shortcut(wl::Count c, wl::Count stride) {
  return test::conv_builder{}
      .batch(8)
      .channels(c)
      .image(56)
      .filters(64)
      .kernel(1)
      .stride(stride)
      .dtype(DataType::bf16)
      .pad(0)
      .build();
}

double dram_bytes(const wl::Conv2dOp& op, const device::Device& gpu) {
  const auto k = models::plan_op(op, gpu).front().kernels.back();
  return k.dram_bytes * k.blocks;
}
}  // namespace

SCENARIO("a 1x1 stride-2 convolution of 16-channel bf16 pixels (32 bytes) reads a quarter of its input") {
  const device::Device gpu(test::gpu_builder{}.build());
  const double input = 8.0 * 56 * 56 * 16 * 2;
  const double output = 8.0 * 28 * 28 * 64 * 2;
  const double filter = 64.0 * 16 * 2;
  // The whole problem fits the L2: every operand is read once.
  CHECK(dram_bytes(shortcut(16, 2), gpu) == Approx(input / 4 + filter + output));
}

SCENARIO(
    "8-channel bf16 pixels (16 bytes) share sectors: a stride-2 1x1 filter reads every other row whole") {
  const device::Device gpu(test::gpu_builder{}.build());
  const double input = 8.0 * 56 * 56 * 8 * 2;
  const double output = 8.0 * 28 * 28 * 64 * 2;
  const double filter = 64.0 * 8 * 2;
  CHECK(dram_bytes(shortcut(8, 2), gpu) == Approx(input / 2 + filter + output));
}
