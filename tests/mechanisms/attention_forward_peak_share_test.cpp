// The warpgroup attention forward (cuDNN, FlashAttention-3) runs its products at a share of the
// datasheet tensor peak (models/attention_model.cpp, kWarpgroupForwardPeakShare): the GPU's calibrated
// GEMM efficiency, set by GEMMs at full tensor duty under the power limiter, does not move it. A causal
// block pays its diagonal tile's mask once (kCausalDiagonalMaskSteps,
// kCausalMaskInstructionsPerScore), not a share of every step.
#include <catch2/catch.hpp>

#include "models/op_model.h"
#include "sim/kernel_timer.h"
#include "support/attention_builder.h"
#include "support/gpu_builder.h"

using namespace gpucast;

namespace {
wl::AttentionOp cudnn_forward(bool causal, wl::Count seq = 2048) {
  return test::attention_builder{}
      .batch(4)
      .heads(16)
      .seq(seq)
      .head_dim(128)
      .causal(causal)
      .backend(wl::AttentionBackend::cudnn)
      .build();
}
// cuDNN's forward: the workspace memset, then the main kernel.
models::KernelPlan main_kernel(const wl::AttentionOp& a, const device::Device& gpu) {
  return models::plan_op(a, gpu).front().kernels.back();
}
double achieved_rate(const models::KernelPlan& k, const device::Device& gpu) {
  return k.pipe_efficiency * gpu.pipe_rate(device::Pipe::tensor, DataType::bf16);
}
}  // namespace

SCENARIO("the cuDNN forward's products reach 0.72 of the datasheet tensor peak") {
  for (const char* gemm_efficiency : {"0.6", "0.744", "0.9"}) {
    const device::Device gpu(test::gpu_builder{}.set("efficiency.tensor.bf16", gemm_efficiency).build());
    CHECK(achieved_rate(main_kernel(cudnn_forward(false), gpu), gpu) ==
          Approx(0.72 * gpu.tensor_peak_per_sm(DataType::bf16)));
  }
  THEN("two GPUs that differ only in their calibrated GEMM efficiency time the main kernel alike") {
    const device::Device low(test::gpu_builder{}.set("efficiency.tensor.bf16", "0.7").build());
    const device::Device high(test::gpu_builder{}.set("efficiency.tensor.bf16", "0.8").build());
    CHECK(sim::time_kernel(main_kernel(cudnn_forward(false), low), low).exec_us ==
          Approx(sim::time_kernel(main_kernel(cudnn_forward(false), high), high).exec_us));
  }
}

SCENARIO(
    "a causal cuDNN forward block pays 0.3 of a step and 16 lane instructions a score for its diagonal "
    "tile's mask") {
  const device::Device gpu(test::gpu_builder{}.build());
  const double peak = 0.72 * gpu.tensor_peak_per_sm(DataType::bf16);
  GIVEN("2048 tokens: 16 query blocks of 128 rows walk 8.5 key blocks on average") {
    CHECK(achieved_rate(main_kernel(cudnn_forward(true), gpu), gpu) == Approx(peak / (1 + 0.3 / 8.5)));
  }
  GIVEN("128 tokens: one block of one step, the diagonal itself") {
    const auto k = main_kernel(cudnn_forward(true, 128), gpu);
    CHECK(achieved_rate(k, gpu) == Approx(peak / 1.3));
    THEN("its softmax's 8 lane instructions a score and the mask's 16") {
      CHECK(k.simt_instructions == Approx((8 + 16) * 128.0 * 128.0));
    }
  }
  GIVEN("the same grid without the mask") {
    const auto k = main_kernel(cudnn_forward(false, 128), gpu);
    CHECK(achieved_rate(k, gpu) == Approx(peak));
    CHECK(k.simt_instructions == Approx(8 * 128.0 * 128.0));
  }
}

SCENARIO("Hopper's memory-efficient forward runs at 0.375 of 0.574 of the datasheet peak") {
  const auto efficient = test::attention_builder{}.seq(2048).backend(wl::AttentionBackend::efficient).build();
  for (const char* mma_sync_efficiency : {"0.5", "0.629", "0.8"}) {
    const device::Device gpu(test::gpu_builder{}.set("efficiency.mma_sync", mma_sync_efficiency).build());
    REQUIRE(gpu.cc_major() == 9);
    const auto k = models::plan_op(efficient, gpu).front().kernels.back();
    CHECK(k.pipe_efficiency * gpu.pipe_rate(device::Pipe::mma_sync, DataType::bf16) ==
          Approx(0.375 * 0.574 * gpu.tensor_peak_per_sm(DataType::bf16)));
  }
}
