// FP32 1x1 stride-1 convolutions with TF32 off on Hopper (models/conv_algorithm.cpp,
// fp32_pointwise_runs_direct): above 16 input channels they still run cuDNN's direct NHWC kernel
// when the output image's pixel count is not a multiple of 4 (up to 50 channels), when the image
// has at most 28 x 28 pixels (up to 96 channels), or when a single image has at most 56 x 56 pixels
// (up to 64 channels); otherwise the NCHW implicit GEMM. One boundary per scenario.
#include <catch2/catch.hpp>

#include "models/conv_algorithm.h"
#include "support/conv_builder.h"
#include "support/gpu_builder.h"

using namespace gpucast;
using models::ConvAlgorithm;

namespace {
ConvAlgorithm pointwise(wl::Count n, wl::Count c, wl::Count hw) {
  const auto op = test::conv_builder{}
                      .batch(n)
                      .channels(c)
                      .image(hw)
                      .filters(64)
                      .kernel(1)
                      .dtype(DataType::fp32)
                      .allow_tf32(false)
                      .build();
  return models::choose_conv_algorithm(op, device::Device(test::gpu_builder{}.build())).algorithm;
}
}  // namespace

SCENARIO("an odd pixel count runs the direct kernel up to 50 channels") {
  CHECK(pointwise(16, 50, 113) == ConvAlgorithm::fma_direct);
  CHECK(pointwise(16, 51, 113) == ConvAlgorithm::simt_nchw_gemm);
  CHECK(pointwise(16, 50, 112) == ConvAlgorithm::simt_nchw_gemm);  // 112 x 112: whole 4-pixel vectors
}

SCENARIO("images of up to 28 x 28 pixels run the direct kernel up to 96 channels, at any batch") {
  CHECK(pointwise(32, 96, 28) == ConvAlgorithm::fma_direct);
  CHECK(pointwise(32, 97, 28) == ConvAlgorithm::simt_nchw_gemm);
  CHECK(pointwise(32, 96, 30) == ConvAlgorithm::simt_nchw_gemm);  // 900 pixels
}

SCENARIO("one image of up to 56 x 56 pixels runs the direct kernel up to 64 channels") {
  CHECK(pointwise(1, 64, 56) == ConvAlgorithm::fma_direct);
  CHECK(pointwise(1, 65, 56) == ConvAlgorithm::simt_nchw_gemm);
  CHECK(pointwise(2, 64, 56) == ConvAlgorithm::simt_nchw_gemm);
  CHECK(pointwise(1, 64, 58) == ConvAlgorithm::simt_nchw_gemm);  // 3,364 pixels
}

SCENARIO("16 channels and fewer run the direct kernel at every image size, as every FP32 filter does") {
  CHECK(pointwise(16, 16, 112) == ConvAlgorithm::fma_direct);
  CHECK(pointwise(16, 17, 112) == ConvAlgorithm::simt_nchw_gemm);
}
