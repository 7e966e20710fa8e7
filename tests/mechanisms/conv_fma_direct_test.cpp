// cuDNN's direct NHWC FMA convolution on Hopper (models/conv_fma_direct.cpp): its issued work is
// per (output pixel, output channel, tap, input channel) step plus a little per output channel, the
// output channels covered in whole groups of 32, spread over threads of 4 output channels each; a
// thread's taps and channels are a chain of dependent steps.
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

SCENARIO("the direct kernel's work grows with taps x channels and whole 32-channel output groups") {
  const auto five = kernel(direct(5, 16));
  const auto ten = kernel(direct(10, 16));
  CHECK(work(ten) > 1.8 * work(five));
  CHECK(work(ten) < 2 * work(five));                         // the per-output-channel share does not double
  CHECK(work(kernel(direct(5, 32))) == Approx(work(five)));  // 16 and 32: one group
  CHECK(work(kernel(direct(5, 33))) == Approx(2 * work(five)));  // 33: two groups
  CHECK(work(kernel(direct(5, 64))) == Approx(work(kernel(direct(5, 33)))));
}

SCENARIO("the direct kernel spreads a pixel's 32-channel groups over threads of 4, 128 a block") {
  // 16 x 16 output pixels: 2,048 threads per group of 32 output channels.
  CHECK(kernel(direct(5, 4)).blocks == 16);
  CHECK(kernel(direct(5, 32)).blocks == 16);
  CHECK(kernel(direct(5, 33)).blocks == 32);
}

SCENARIO("a direct-kernel thread's dependent steps are its taps times its input channels") {
  CHECK(kernel(direct(10, 16)).fixed_cycles == Approx(2 * kernel(direct(5, 16)).fixed_cycles));
  CHECK(kernel(direct(5, 64)).fixed_cycles == Approx(kernel(direct(5, 16)).fixed_cycles));
}
