// fp16 and tf32 convolutions whose few input channels are not whole 16-byte vectors
// (models/conv_algorithm.cpp): from one vector up to 16 channels cuDNN runs FMA kernels on the
// unpadded tensors in fp32 arithmetic (conv2d-1158 fp16 and conv2d-1145 tf32, C = 13) instead of
// padding the channels for tensor cores; whole vectors, wider inputs and 1x1 GEMMs keep tensor cores.
#include <catch2/catch.hpp>

#include "models/conv_algorithm.h"
#include "models/op_model.h"
#include "support/conv_builder.h"
#include "support/gpu_builder.h"

using namespace gpucast;
using models::ConvAlgorithm;
using test::gpu_builder;

namespace {
wl::Conv2dOp conv(wl::Count c, wl::Count r, DataType t) {
  return test::conv_builder{}.batch(16).channels(c).image(57).filters(64).kernel(r).dtype(t).build();
}
models::ConvChoice choose(const wl::Conv2dOp& op) {
  const device::Device gpu(gpu_builder{}.tensor_tflops("tf32", 200).build());
  return models::choose_conv_algorithm(op, gpu);
}
}  // namespace

SCENARIO("fp16 with 9 to 15 channels runs FMA kernels unpadded; 8 and 16 channels keep tensor cores") {
  GIVEN("13 fp16 channels (not a whole 8-element vector)") {
    const auto c = choose(conv(13, 3, DataType::fp16));
    THEN("the direct kernel reads the 13 real channels on the FMA pipe") {
      CHECK(c.algorithm == ConvAlgorithm::fma_direct);
      CHECK_FALSE(c.tensor);
      CHECK(c.channels == 13);
    }
  }
  THEN("the boundaries stay on tensor cores") {
    CHECK(choose(conv(16, 3, DataType::fp16)).tensor);  // whole vectors
    CHECK(choose(conv(17, 3, DataType::fp16)).tensor);  // wider than the direct kernel's range
    CHECK(choose(conv(15, 3, DataType::fp16)).algorithm == ConvAlgorithm::fma_direct);
    CHECK(choose(conv(7, 3, DataType::fp16)).algorithm == ConvAlgorithm::few_channel_indexed);
  }
}

SCENARIO("tf32 with 5 to 15 unaligned channels runs FP32 FMA kernels; bf16 still pads") {
  auto tf32 = [](wl::Count c, wl::Count r) {
    auto op = conv(c, r, DataType::fp32);
    op.allow_tf32 = true;
    return op;
  };
  CHECK(choose(tf32(13, 5)).algorithm == ConvAlgorithm::fma_direct);
  CHECK(choose(tf32(13, 5)).math == DataType::fp32);
  CHECK(choose(tf32(5, 3)).algorithm == ConvAlgorithm::fma_direct);
  CHECK(choose(tf32(12, 3)).tensor);  // three whole 4-element vectors
  CHECK(choose(tf32(3, 3)).algorithm == ConvAlgorithm::few_channel_indexed);
  CHECK(choose(tf32(13, 1)).algorithm == ConvAlgorithm::gemm);  // 1x1: a GEMM
  CHECK(choose(conv(13, 3, DataType::bf16)).tensor);
}

SCENARIO("an unaligned fp16 convolution on the FMA path launches no padding kernels") {
  const auto options = models::plan_op(conv(13, 3, DataType::fp16), device::Device(gpu_builder{}.build()));
  REQUIRE_FALSE(options.empty());
  CHECK(options.front().kernels.size() == 1);
  CHECK(options.front().kernels.front().pipe == device::Pipe::none);
}
