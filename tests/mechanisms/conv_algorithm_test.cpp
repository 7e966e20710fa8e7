// Which cuDNN algorithm family runs a convolution (models/conv_algorithm.cpp), one rule per
// scenario at its boundary: 1x1 stride 1 is a GEMM; input channels within one 64-byte mma.sync K
// step run the few-channel sm80 kernel; FP32 runs TF32 tensor cores only when allowed and present;
// FP32 3x3 stride-1 runs fused Winograd up to compute capability 8; from Hopper on FP32 wider than 16
// channels runs the NCHW implicit GEMM (conv_fma_nchw_test.cpp), narrower the direct NHWC path; fp16
// and tf32 below one 16-byte channel vector run the sm80 indexed kernel unpadded, bf16 pads at 7x7 and
// runs the direct kernel otherwise.
#include <catch2/catch.hpp>

#include "models/conv_algorithm.h"
#include "models/op_model.h"
#include "sim/op_predictor.h"
#include "support/conv_builder.h"
#include "support/gpu_builder.h"

using namespace gpucast;
using models::ConvAlgorithm;
using test::gpu_builder;

namespace {
wl::Conv2dOp conv(wl::Count c, wl::Count r, wl::Count stride, DataType t) {
  return test::conv_builder{}
      .batch(8)
      .channels(c)
      .image(28)
      .filters(128)
      .kernel(r)
      .stride(stride)
      .dtype(t)
      .build();
}
wl::Conv2dOp fp32_no_tf32(wl::Count c, wl::Count r, wl::Count stride) {
  auto op = conv(c, r, stride, DataType::fp32);
  op.allow_tf32 = false;
  return op;
}
hw::GpuSpec hopper() {
  return gpu_builder{}.tensor_tflops("tf32", 200).set("efficiency.tensor.tf32", "1.0").build();
}
hw::GpuSpec cc8() {
  return gpu_builder{}
      .set("architecture", "\"ampere\"")
      .set("compute_capability", "\"8.0\"")
      .set("sm.shared_memory_kb", "164.0")
      .build();
}
ConvAlgorithm algorithm(const wl::Conv2dOp& op, const hw::GpuSpec& gpu) {
  return models::choose_conv_algorithm(op, device::Device(gpu)).algorithm;
}
}  // namespace

SCENARIO("a 1x1 stride-1 convolution is a GEMM; at stride 2 it is an implicit GEMM") {
  const auto gpu = hopper();
  CHECK(algorithm(conv(64, 1, 1, DataType::bf16), gpu) == ConvAlgorithm::gemm);
  CHECK(algorithm(conv(64, 1, 2, DataType::bf16), gpu) == ConvAlgorithm::implicit_precomp_gemm);
}

SCENARIO("input channels within one 64-byte K step run the few-channel sm80 kernel") {
  // 32 bf16 channels are 64 bytes; 33 pad to 40 (80 bytes).
  const auto gpu = hopper();
  CHECK(algorithm(conv(32, 3, 1, DataType::bf16), gpu) == ConvAlgorithm::few_channel_gemm);
  CHECK(algorithm(conv(33, 3, 1, DataType::bf16), gpu) == ConvAlgorithm::implicit_precomp_gemm);
}

SCENARIO("few-channel kernels use the mma.sync pipe on Hopper and the tensor path before it") {
  const auto op = conv(3, 7, 2, DataType::bf16);
  CHECK(models::plan_op(op, device::Device(hopper())).front().kernels.back().pipe == device::Pipe::mma_sync);
  CHECK(models::plan_op(op, device::Device(cc8())).front().kernels.back().pipe == device::Pipe::tensor);
}

SCENARIO("fp32 runs TF32 tensor cores when allowed and the GPU has them, else the FMA pipe") {
  const device::Device with_tf32(hopper());
  const device::Device without_tf32(gpu_builder{}.build());
  CHECK(models::choose_conv_algorithm(conv(64, 3, 1, DataType::fp32), with_tf32).math == DataType::tf32);
  CHECK(models::choose_conv_algorithm(fp32_no_tf32(64, 3, 1), with_tf32).math == DataType::fp32);
  CHECK_FALSE(models::choose_conv_algorithm(fp32_no_tf32(64, 3, 1), with_tf32).tensor);
  CHECK(models::choose_conv_algorithm(conv(64, 3, 1, DataType::fp32), without_tf32).math == DataType::fp32);
}

SCENARIO("FP32 FMA 3x3 stride-1 convolutions run fused Winograd up to compute capability 8 only") {
  CHECK(algorithm(fp32_no_tf32(64, 3, 1), cc8()) == ConvAlgorithm::winograd);
  CHECK(algorithm(fp32_no_tf32(64, 3, 2), cc8()) == ConvAlgorithm::simt_implicit_gemm);
  CHECK(algorithm(fp32_no_tf32(64, 5, 1), cc8()) == ConvAlgorithm::simt_implicit_gemm);
  CHECK(algorithm(fp32_no_tf32(64, 3, 1), hopper()) == ConvAlgorithm::simt_nchw_gemm);
}

SCENARIO("on Hopper FP32 with TF32 off runs NCHW above 16 input channels, the direct path at 16 and below") {
  CHECK(algorithm(fp32_no_tf32(17, 3, 1), hopper()) == ConvAlgorithm::simt_nchw_gemm);
  CHECK(algorithm(fp32_no_tf32(16, 3, 1), hopper()) == ConvAlgorithm::fma_direct);
  // 1x1 too, over 8 images of 56 x 56 (conv_fma_pointwise_direct_test.cpp: smaller images run direct).
  auto pointwise = fp32_no_tf32(64, 1, 1);
  pointwise.h = pointwise.w = 56;
  CHECK(algorithm(pointwise, hopper()) == ConvAlgorithm::simt_nchw_gemm);
}

SCENARIO(
    "fp16 and tf32 inputs below one 16-byte channel vector run the indexed kernel; a bf16 7x7 stem pads") {
  // 7 fp16 channels are 14 bytes, 8 are 16; tf32: 3 are 12 bytes, 4 are 16.
  const auto gpu = hopper();
  CHECK(algorithm(conv(7, 3, 1, DataType::fp16), gpu) == ConvAlgorithm::few_channel_indexed);
  CHECK(algorithm(conv(8, 3, 1, DataType::fp16), gpu) == ConvAlgorithm::few_channel_gemm);
  CHECK(algorithm(conv(3, 3, 1, DataType::fp32), gpu) == ConvAlgorithm::few_channel_indexed);
  CHECK(algorithm(conv(4, 3, 1, DataType::fp32), gpu) != ConvAlgorithm::few_channel_indexed);
  CHECK(algorithm(conv(3, 7, 2, DataType::bf16), gpu) == ConvAlgorithm::few_channel_gemm);
}

SCENARIO(
    "bf16 below one channel vector pads for tensor cores at 7x7 only; other filters run the direct kernel") {
  const auto gpu = hopper();
  CHECK(algorithm(conv(3, 7, 2, DataType::bf16), gpu) == ConvAlgorithm::few_channel_gemm);
  CHECK(algorithm(conv(3, 3, 2, DataType::bf16), gpu) == ConvAlgorithm::fma_direct);
  CHECK(algorithm(conv(5, 5, 1, DataType::bf16), gpu) == ConvAlgorithm::fma_direct);
  CHECK(algorithm(conv(3, 1, 2, DataType::bf16), gpu) == ConvAlgorithm::fma_direct);
  CHECK(algorithm(conv(8, 3, 1, DataType::bf16), gpu) ==
        ConvAlgorithm::few_channel_gemm);  // one whole vector
  CHECK(algorithm(conv(3, 3, 2, DataType::bf16), cc8()) == ConvAlgorithm::few_channel_gemm);  // before Hopper
}

SCENARIO("explain and predict name the algorithm family they chose") {
  const device::Device gpu(hopper());
  sim::OpPredictor p(gpu);
  for (const auto& op :
       {conv(3, 7, 2, DataType::bf16), fp32_no_tf32(64, 3, 1), conv(64, 1, 1, DataType::bf16)}) {
    const std::string family = models::conv_algorithm_name(models::choose_conv_algorithm(op, gpu));
    CHECK(p.predict(op).option.rfind(family, 0) == 0);
    CHECK(p.rank_options(op).front().option == p.predict(op).option);
  }
}
