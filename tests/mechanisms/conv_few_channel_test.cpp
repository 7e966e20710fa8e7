// fp16 and tf32 convolutions with fewer channels than one 16-byte vector (models/conv_few_channel.cpp):
// the sm80 indexed kernel reads them unpadded (no padding kernels); tf32 first rounds the input and
// the filter (two conversion passes); every tap is one dependent L2 round trip of the block.
#include <catch2/catch.hpp>

#include "models/op_model.h"
#include "support/conv_builder.h"
#include "support/gpu_builder.h"

using namespace gpucast;

namespace {
wl::Conv2dOp stem(DataType t, wl::Count r) {
  return test::conv_builder{}
      .batch(1)
      .channels(3)
      .image(224)
      .filters(64)
      .kernel(r)
      .stride(2)
      .dtype(t)
      .build();
}
hw::GpuSpec hopper_tf32() {
  return test::gpu_builder{}.tensor_tflops("tf32", 200).set("efficiency.tensor.tf32", "1.0").build();
}
}  // namespace

SCENARIO("an fp16 stem runs one unpadded kernel; a tf32 stem converts input and filter first") {
  const device::Device gpu(hopper_tf32());
  CHECK(models::plan_op(stem(DataType::fp16, 7), gpu).front().kernels.size() == 1);
  CHECK(models::plan_op(stem(DataType::fp32, 7), gpu).front().kernels.size() == 3);
}

SCENARIO("each tap of the indexed kernel is one dependent L2 round trip") {
  const device::Device gpu(hopper_tf32());
  const auto seven = models::plan_op(stem(DataType::fp16, 7), gpu).front().kernels.back();
  const auto three = models::plan_op(stem(DataType::fp16, 3), gpu).front().kernels.back();
  CHECK(seven.l2_rounds == 49);
  CHECK(three.l2_rounds == 9);
}
