// FP32 convolutions on the FMA pipe in NHWC before Hopper (models/conv_model.cpp, TF32 off or absent):
// SIMT implicit GEMM that reads each tap's channels as 4-element vectors, needs no channel-padding
// kernels, and sustains a fixed share of the FP32 GEMM rate at any shape. Hopper's NCHW path for wider
// inputs: conv_fma_nchw_test.cpp; its direct NHWC kernel for 16 channels or fewer:
// conv_unaligned_fma_test.cpp.
#include <catch2/catch.hpp>

#include "models/op_model.h"
#include "sim/op_predictor.h"
#include "support/conv_builder.h"
#include "support/gemm_builder.h"
#include "support/gpu_builder.h"

using namespace gpucast;

namespace {
wl::Conv2dOp stem(wl::Count c) {
  return test::conv_builder{}
      .batch(8)
      .channels(c)
      .image(224)
      .filters(64)
      .kernel(7)
      .stride(2)
      .dtype(DataType::fp32)
      .allow_tf32(false)
      .pad(3)
      .build();
}
hw::GpuSpec ampere() {
  return test::gpu_builder{}
      .set("architecture", "\"ampere\"")
      .set("compute_capability", "\"8.0\"")
      .set("sm.shared_memory_kb", "164.0")
      .build();
}
models::KernelPlan conv_kernel(const wl::Conv2dOp& op, const device::Device& gpu) {
  return models::plan_op(op, gpu).front().kernels.back();
}
}  // namespace

SCENARIO("FMA convolutions run on the fp32 pipe without channel-padding kernels") {
  const device::Device gpu(ampere());
  const auto options = models::plan_op(stem(3), gpu);
  CHECK(options.front().kernels.size() == 1);
  CHECK(options.front().kernels.back().pipe == device::Pipe::fp32);
}

SCENARIO("an FMA convolution fills 4-channel vectors per tap: 3 channels cost as 4, 5 as 8") {
  const device::Device gpu(ampere());
  CHECK(conv_kernel(stem(3), gpu).pipe_flops == Approx(conv_kernel(stem(4), gpu).pipe_flops));
  CHECK(conv_kernel(stem(5), gpu).pipe_flops == Approx(conv_kernel(stem(8), gpu).pipe_flops));
  CHECK(conv_kernel(stem(4), gpu).pipe_flops < conv_kernel(stem(5), gpu).pipe_flops);
}

SCENARIO("an FMA implicit GEMM sustains one share of the FP32 GEMM rate, the same at every shape") {
  // The 1x1 convolution is the plain SIMT GEMM; the 7x7 and 3x3 ones pay the same share for their
  // address generation, whatever their shape (an Ampere-class GPU: Hopper runs these in NCHW).
  const device::Device gpu(test::gpu_builder{}
                               .set("architecture", "\"ampere\"")
                               .set("compute_capability", "\"8.0\"")
                               .set("sm.shared_memory_kb", "164.0")
                               .build());
  // A deep 1x1 convolution: the SIMT GEMM's exposed output write (models/gemm_model.cpp) is a
  // negligible share of its K loop, so its efficiency is the main loop's.
  auto pointwise = stem(4096);
  pointwise.r = pointwise.s = 1;
  pointwise.stride = 1;
  pointwise.pad = 0;
  auto three = stem(256);
  three.r = three.s = 3;
  three.pad = 1;
  const double gemm = conv_kernel(pointwise, gpu).pipe_efficiency;
  const double seven_share = conv_kernel(stem(64), gpu).pipe_efficiency / gemm;
  CHECK(seven_share < 1);
  CHECK(conv_kernel(three, gpu).pipe_efficiency / gemm == Approx(seven_share));
}

SCENARIO("on Hopper an FP32 3x3 convolution with TF32 off is no faster than its im2col GEMM") {
  // cuDNN runs an implicit GEMM there, not Winograd: the convolution pays the GEMM's FLOPs and more.
  sim::OpPredictor p(test::gpu_builder{}.build());
  auto three = stem(256);
  three.n = 32;
  three.h = three.w = 14;
  three.k = 256;
  three.r = three.s = 3;
  three.stride = 1;
  three.pad = 1;
  const wl::GemmOp g = test::gemm_op(32 * 14 * 14, 256, 256 * 9, DataType::fp32);
  CHECK(p.predict(three).duration_us >= p.predict(g).duration_us);
}
