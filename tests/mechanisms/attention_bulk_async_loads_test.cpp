// The warpgroup attention forward (cuDNN's sm90 flash_fprop, FlashAttention-3) loads its K and V
// tiles with TMA bulk copies (models/attention_model.cpp): one SM's draw is not held to the LSU's
// outstanding-miss limit (memory.sm_bandwidth_gbps), only to the device's rate (sim/kernel_timer.cpp).
// A grid of a few long blocks (a few query rows against a long context) is then bound by its products,
// not by one SM's single-block bandwidth. Kernels without the flag keep the per-SM cap.
#include <catch2/catch.hpp>

#include "models/op_model.h"
#include "sim/kernel_timer.h"
#include "support/attention_builder.h"
#include "support/gpu_builder.h"

using namespace gpucast;

namespace {
// One query block per head against 16K keys: 32 blocks of 128 steps, one per SM.
wl::AttentionOp few_rows(wl::AttentionBackend backend) {
  return test::attention_builder{}
      .batch(1)
      .heads(32)
      .seq_q(4)
      .seq_kv(16384)
      .head_dim(128)
      .backend(backend)
      .build();
}
models::KernelPlan main_kernel(const wl::AttentionOp& a, const device::Device& gpu) {
  return models::plan_op(a, gpu).front().kernels.back();
}
device::Device gpu_with_sm_bandwidth(double gbps) {
  return device::Device(test::gpu_builder{}.sm_bandwidth_gbps(gbps).build());
}
}  // namespace

SCENARIO("the warpgroup forward's TMA loads are not held to one SM's LSU bandwidth") {
  GIVEN("the cuDNN forward on a warpgroup GPU") {
    const device::Device narrow = gpu_with_sm_bandwidth(1);
    const device::Device wide = gpu_with_sm_bandwidth(100000);
    const auto k = main_kernel(few_rows(wl::AttentionBackend::cudnn), narrow);
    CHECK(k.bulk_async_loads);
    THEN("its time does not depend on memory.sm_bandwidth_gbps") {
      CHECK(sim::time_kernel(k, narrow).exec_us == Approx(sim::time_kernel(k, wide).exec_us));
    }
  }
  GIVEN("the memory-efficient forward (cp.async / LSU loads)") {
    const device::Device narrow = gpu_with_sm_bandwidth(1);
    const device::Device wide = gpu_with_sm_bandwidth(100000);
    const auto k = main_kernel(few_rows(wl::AttentionBackend::efficient), narrow);
    CHECK_FALSE(k.bulk_async_loads);
    THEN("one SM's bandwidth bounds it") {
      CHECK(sim::time_kernel(k, narrow).exec_us > 2 * sim::time_kernel(k, wide).exec_us);
    }
  }
}

SCENARIO("a kernel's bulk loads lift only the per-SM cap, not the device's rate") {
  const device::Device gpu = gpu_with_sm_bandwidth(1);
  models::KernelPlan k;
  k.blocks = 1;
  k.dram_bytes = 1e6;
  const double capped_us = sim::time_kernel(k, gpu).exec_us;
  k.bulk_async_loads = true;
  const double bulk_us = sim::time_kernel(k, gpu).exec_us;
  THEN("one block's megabyte at 1 GB/s takes a millisecond with LSU loads, far less with bulk copies") {
    CHECK(capped_us > 1000);
    CHECK(bulk_us < 100);
    CHECK(bulk_us >= 1e6 / gpu.rates().dram - 1e-9);
  }
}
