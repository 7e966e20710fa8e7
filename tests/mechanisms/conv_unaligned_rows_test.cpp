// cuDNN's sm90 implicit-GEMM kernels over pixel rows that are not whole 128-byte lines (C x element
// bytes) pay their A tile gathers on top of the K loop for every tile an SM runs after its first
// (models/conv_model.cpp, GemmShape::a_serial_cycles_per_byte): 8.25 loaded bytes per cycle per SM. 64 bf16
// channels (128 B) pay nothing; 72 (144 B) pay (waves - 1) x the A tile's bytes; a grid of one wave
// pays nothing, nor do the sm80 mma.sync kernels beside them.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>

#include "models/op_model.h"
#include "support/chosen_plan.h"
#include "support/conv_builder.h"
#include "support/gpu_builder.h"

using namespace gpucast;

namespace {
// 8 images of 58x58 without padding: 56x56 outputs, every tap in bounds; M = 25,088, 64 filters.
wl::Conv2dOp conv(wl::Count channels, wl::Count batch = 8) {
  return test::conv_builder{}.batch(batch).channels(channels).image(58).filters(64).kernel(3).pad(0).build();
}
using test::option_kernel;
}  // namespace

SCENARIO(
    "sm90 convolution kernels pay unoverlapped A gathers only over rows that are not whole 128-byte lines") {
  const device::Device gpu(test::gpu_builder{}.build());
  GIVEN("64 bf16 channels: 128-byte rows") {
    const auto options = models::plan_op(conv(64), gpu);
    THEN("no tile pays") {
      CHECK(option_kernel(options, ": gemm 64x64").extra_us == 0);
    }
  }
  GIVEN("72 bf16 channels: 144-byte rows, 392 tiles of 64x64") {
    const auto options = models::plan_op(conv(72), gpu);
    const double waves = std::ceil(392.0 / gpu.sms());
    // 9 taps of two 64-channel K steps: an executed K of 1,152, of which the 72 channels of each
    // tap load (conv_step_zero_fill_test.cpp): 64 rows of 9 x 72 elements of 2 bytes.
    const double a_tile_bytes = 64.0 * 9 * 72 * 2;
    THEN("every tile after an SM's first pays its loaded A bytes at 8.25 bytes per cycle") {
      CHECK(option_kernel(options, ": gemm 64x64").extra_us ==
            Approx(gpu.cycles_to_us((waves - 1) * a_tile_bytes / 8.25)));
    }
  }
  GIVEN("72 bf16 channels in one wave (one image: 49 tiles)") {
    const auto options = models::plan_op(conv(72, 1), gpu);
    THEN("no tile pays") {
      CHECK(option_kernel(options, ": gemm 64x64").extra_us == 0);
    }
    THEN("nor do the sm80 mma.sync kernels") {
      CHECK(option_kernel(options, ": mma.sync gemm 64x64").extra_us == 0);
    }
  }
}
