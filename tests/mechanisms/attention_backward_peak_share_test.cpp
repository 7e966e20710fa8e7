// The warpgroup attention backward (cuDNN, FlashAttention-3) runs its products at a share of the
// datasheet tensor peak (models/attention_backward.cpp): the GPU's calibrated GEMM efficiency, set by
// GEMMs at full tensor duty under the power limiter, does not move it.
#include <catch2/catch.hpp>

#include "models/op_model.h"
#include "sim/kernel_timer.h"
#include "support/attention_builder.h"
#include "support/gpu_builder.h"

using namespace gpucast;

namespace {
wl::AttentionOp cudnn_backward() {
  return test::attention_builder{}
      .batch(4)
      .heads(16)
      .seq(2048)
      .head_dim(128)
      .backward()
      .backend(wl::AttentionBackend::cudnn)
      .build();
}
models::KernelPlan main_kernel(const device::Device& gpu) {
  return models::plan_op(cudnn_backward(), gpu).front().kernels[2];
}
}  // namespace

SCENARIO("the cuDNN backward's products reach 0.83 of the datasheet tensor peak") {
  for (const char* gemm_efficiency : {"0.6", "0.766714", "0.9"}) {
    const device::Device gpu(test::gpu_builder{}.set("efficiency.tensor.bf16", gemm_efficiency).build());
    const auto k = main_kernel(gpu);
    CHECK(k.pipe_efficiency * gpu.pipe_rate(device::Pipe::tensor, DataType::bf16) ==
          Approx(0.83 * gpu.tensor_peak_per_sm(DataType::bf16)));
  }
  THEN("two GPUs that differ only in their calibrated GEMM efficiency time the main kernel alike") {
    const device::Device low(test::gpu_builder{}.set("efficiency.tensor.bf16", "0.7").build());
    const device::Device high(test::gpu_builder{}.set("efficiency.tensor.bf16", "0.8").build());
    CHECK(sim::time_kernel(main_kernel(low), low).exec_us ==
          Approx(sim::time_kernel(main_kernel(high), high).exec_us));
  }
}
