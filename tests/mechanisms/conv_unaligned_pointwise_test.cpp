// A 1x1 stride-1 convolution over channels that are not whole 16-byte vectors runs the library's
// narrow-load GEMM on the unpadded tensors (models/conv_model.cpp, models/gemm_alignment.h), one
// kernel and no padding kernels; the sm80 indexed few-channel kernel stores whole 8-channel output
// vectors, so other output channel counts run the direct NHWC kernel (models/conv_algorithm.cpp).
#include <catch2/catch.hpp>

#include "models/conv_algorithm.h"
#include "models/gemm_model.h"
#include "models/op_model.h"
#include "support/conv_builder.h"
#include "support/gemm_builder.h"
#include "support/gpu_builder.h"

using namespace gpucast;
using models::ConvAlgorithm;

namespace {
hw::GpuSpec hopper() {
  return test::gpu_builder{}.tensor_tflops("tf32", 200).set("efficiency.tensor.tf32", "1.0").build();
}
wl::Conv2dOp pointwise(wl::Count c, wl::Count k, DataType t) {
  return test::conv_builder{}.batch(4).channels(c).image(57).filters(k).kernel(1).dtype(t).build();
}
ConvAlgorithm algorithm(const wl::Conv2dOp& op) {
  return models::choose_conv_algorithm(op, device::Device(hopper())).algorithm;
}
}  // namespace

SCENARIO("a 1x1 convolution over 50 bf16 channels is one unpadded GEMM kernel; 48 channels too") {
  const device::Device gpu(hopper());
  for (wl::Count c : {50, 48}) {
    const auto options = models::plan_op(pointwise(c, 100, DataType::bf16), gpu);
    for (const auto& option : options) CHECK(option.kernels.size() == 1);
  }
}

SCENARIO("an unaligned 1x1 convolution times as the GEMM of its unpadded tensors, filter transposed") {
  const device::Device gpu(hopper());
  const auto op = pointwise(50, 100, DataType::bf16);
  const wl::GemmOp g = test::gemm_builder{}.mnk(op.n * op.p() * op.q(), 100, 50).transpose_b().build();
  const auto conv = models::plan_op(op, gpu);
  const auto gemm = models::GemmModel().plan(g, gpu);
  REQUIRE(conv.size() == gemm.size());
  CHECK(conv.front().kernels.front().pipe_flops == gemm.front().kernels.front().pipe_flops);
  CHECK(conv.front().kernels.front().pipe_efficiency == gemm.front().kernels.front().pipe_efficiency);
}

SCENARIO("a 1x1 tf32 convolution below one channel vector is not a GEMM; at 4 channels it is") {
  CHECK(algorithm(pointwise(3, 33, DataType::fp32)) == ConvAlgorithm::fma_direct);
  CHECK(algorithm(pointwise(4, 33, DataType::fp32)) == ConvAlgorithm::gemm);
  CHECK(algorithm(pointwise(3, 33, DataType::fp16)) == ConvAlgorithm::gemm);
}

SCENARIO("the indexed kernel needs output channels in 8s: 32 and 64 run it, 33 and 7 the direct kernel") {
  auto few = [](wl::Count k, DataType t) {
    return test::conv_builder{}.batch(4).channels(3).image(57).filters(k).kernel(5).dtype(t).build();
  };
  CHECK(algorithm(few(32, DataType::fp32)) == ConvAlgorithm::few_channel_indexed);
  CHECK(algorithm(few(64, DataType::fp16)) == ConvAlgorithm::few_channel_indexed);
  CHECK(algorithm(few(33, DataType::fp32)) == ConvAlgorithm::fma_direct);
  CHECK(algorithm(few(7, DataType::fp16)) == ConvAlgorithm::fma_direct);
  CHECK(algorithm(few(40, DataType::fp16)) == ConvAlgorithm::few_channel_indexed);
}
