// Output channels that are not whole 16-byte vectors on the tensor-core implicit GEMM
// (models/conv_model.cpp): the kernel computes them padded, the filter is padded to match, and one
// more kernel copies the real channels out.
#include <catch2/catch.hpp>

#include "models/op_model.h"
#include "support/conv_builder.h"
#include "support/gpu_builder.h"

using namespace gpucast;

namespace {
wl::Conv2dOp conv(wl::Count k) {
  return test::conv_builder{}
      .batch(4)
      .channels(64)
      .image(56)
      .filters(k)
      .kernel(3)
      .dtype(DataType::bf16)
      .pad(1)
      .build();
}
}  // namespace

SCENARIO("33 output channels pad to 40 and are copied out; 32 need nothing") {
  const device::Device gpu(test::gpu_builder{}.build());
  const auto aligned = models::plan_op(conv(32), gpu).front().kernels;
  const auto odd = models::plan_op(conv(33), gpu).front().kernels;
  CHECK(aligned.size() == 1);
  // memset + pad of the filter, the convolution, the copy out of the padded output.
  REQUIRE(odd.size() == 4);
  CHECK(odd.back().name.find("copy output out of 40") != std::string::npos);
}
