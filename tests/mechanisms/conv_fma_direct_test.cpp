// cuDNN's direct NHWC FMA convolution on Hopper (models/conv_fma_direct.cpp): its issued work is
// per (output pixel, tap, input channel) plus a little per output channel, spread over threads of 4
// output channels each; a thread's taps and channels are a chain of dependent steps.
#include <catch2/catch.hpp>

#include "models/op_model.h"
#include "support/conv_builder.h"
#include "support/gpu_builder.h"

using namespace gpucast;

namespace {
wl::Conv2dOp direct(wl::Count c, wl::Count k) {
  return test::conv_builder{}
      .batch(1)
      .channels(c)
      .image(31)
      .filters(k)
      .kernel(5)
      .stride(2)
      .dtype(DataType::fp32)
      .allow_tf32(false)
      .pad(2)
      .build();
}
models::KernelPlan kernel(const wl::Conv2dOp& op) {
  const auto options = models::plan_op(op, device::Device(test::gpu_builder{}.build()));
  REQUIRE(options.size() == 1);
  REQUIRE(options.front().kernels.size() == 1);
  return options.front().kernels.front();
}
double work(const models::KernelPlan& k) {
  return k.simt_instructions * k.blocks;
}
}  // namespace

SCENARIO("the direct kernel's work is per tap and channel, and grows by less than its output channels") {
  const auto five = kernel(direct(5, 16));
  const auto ten = kernel(direct(10, 16));
  const auto wide = kernel(direct(5, 64));
  CHECK(work(ten) == Approx(2 * work(five)));
  CHECK(work(wide) > work(five));
  CHECK(work(wide) < 2 * work(five));  // 4x the output channels, under 2x the work
}

SCENARIO("the direct kernel spreads a pixel over threads of 4 output channels, 128 a block") {
  // 16 x 16 output pixels: 256 threads at 4 output channels, 1,024 at 16.
  CHECK(kernel(direct(5, 4)).blocks == 2);
  CHECK(kernel(direct(5, 16)).blocks == 8);
}

SCENARIO("a direct-kernel thread's dependent steps are its taps times its input channels") {
  CHECK(kernel(direct(10, 16)).fixed_cycles == Approx(2 * kernel(direct(5, 16)).fixed_cycles));
  CHECK(kernel(direct(5, 64)).fixed_cycles == Approx(kernel(direct(5, 16)).fixed_cycles));
}
