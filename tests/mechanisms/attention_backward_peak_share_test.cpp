// The attention backward runs its products at a share of the datasheet peak
// (models/attention_backward.cpp): the warpgroup kernels (cuDNN, FlashAttention-3) at their own share
// of the tensor peak, the GPU's calibrated GEMM efficiency, set by GEMMs at full tensor duty under the
// power limiter, not moving it; Hopper's warp-level kernels at theirs of the H100's mma.sync share.
#include <catch2/catch.hpp>

#include <algorithm>
#include <vector>

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

SCENARIO("Hopper's warp-level backward kernels reach their share of 0.574 of the datasheet peak") {
  // FlashAttention-2's and the memory-efficient backward run the same kernels on the H100 and the
  // H200: the H200's higher mma.sync calibration does not move them (models/attention_mma_sync_share.h).
  for (const auto backend : {wl::AttentionBackend::flash2, wl::AttentionBackend::efficient}) {
    const auto op = test::attention_builder{}.seq(2048).backward().backend(backend).build();
    std::vector<double> rates;
    for (const char* mma_sync_efficiency : {"0.5", "0.629", "0.8"}) {
      const device::Device gpu(test::gpu_builder{}.set("efficiency.mma_sync", mma_sync_efficiency).build());
      REQUIRE(gpu.cc_major() == 9);
      const auto kernels = models::plan_op(op, gpu).front().kernels;
      const auto main = *std::max_element(kernels.begin(), kernels.end(), [](const auto& a, const auto& b) {
        return a.pipe_flops < b.pipe_flops;
      });
      REQUIRE(main.pipe == device::Pipe::mma_sync);
      rates.push_back(main.pipe_efficiency * gpu.pipe_rate(device::Pipe::mma_sync, DataType::bf16) /
                      gpu.tensor_peak_per_sm(DataType::bf16));
    }
    CHECK(rates[0] == Approx(rates[1]));
    CHECK(rates[2] == Approx(rates[1]));
    CHECK(rates[1] < 0.574);
  }
}
