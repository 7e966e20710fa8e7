// The memory-efficient forward kernel (models/attention_model.cpp, models/attention_block_chain.h):
// its warps and registers follow PyTorch's kernel_forward.h (queries x keys / 1024 warps, 16 warps per
// SM by __launch_bounds__), and with one K/V stage a block's arithmetic waits for its loads: its
// serial part holds its own products, which a lone block pays in full and a full SM hides.
// FlashAttention-2's forward (one K/V stage too) follows the same rule.
#include <catch2/catch.hpp>

#include "models/attention_block_chain.h"
#include "models/op_model.h"
#include "sim/kernel_timer.h"
#include "support/attention_builder.h"
#include "support/gpu_builder.h"

using namespace gpucast;

namespace {
wl::AttentionOp efficient(wl::Count heads, wl::Count seq_q, wl::Count seq_kv, wl::Count head_dim) {
  return test::attention_builder{}
      .batch(1)
      .heads(heads)
      .seq_q(seq_q)
      .seq_kv(seq_kv)
      .head_dim(head_dim)
      .backend(wl::AttentionBackend::efficient)
      .build();
}
models::KernelPlan main_kernel(const wl::AttentionOp& a, const device::Device& gpu) {
  return models::plan_op(a, gpu).front().kernels.back();
}
}  // namespace

SCENARIO("the memory-efficient forward runs queries x keys / 1024 warps, 16 warps per SM") {
  const device::Device gpu(test::gpu_builder{}.build());
  GIVEN("head_dim 64: 64 x 64 tiles") {
    const auto k = main_kernel(efficient(8, 1024, 1024, 64), gpu);
    THEN("4 warps at 128 registers: four blocks per SM") {
      CHECK(k.threads == 128);
      CHECK(k.registers == 128);
    }
  }
  GIVEN("head_dim 128: 64 x 128 tiles") {
    const auto k = main_kernel(efficient(8, 1024, 1024, 128), gpu);
    THEN("8 warps at 128 registers: two blocks per SM") {
      CHECK(k.threads == 256);
      CHECK(k.registers == 128);
    }
  }
}

SCENARIO("a memory-efficient block's serial part holds its own products") {
  const device::Device gpu(test::gpu_builder{}.build());
  // Few queries over many keys: one query tile per head, 64 key steps each, 8 blocks on 100 SMs.
  const auto k = main_kernel(efficient(8, 64, 4096, 64), gpu);
  const double compute_cycles = models::lone_block_compute_cycles(k, gpu);
  REQUIRE(compute_cycles > 0);
  THEN("a lone block lasts its round trips plus its arithmetic, not the longer of the two") {
    auto without = k;
    without.fixed_cycles -= compute_cycles;
    const double gap_us = sim::time_kernel(k, gpu).exec_us - sim::time_kernel(without, gpu).exec_us;
    CHECK(gap_us == Approx(gpu.cycles_to_us(compute_cycles)).epsilon(1e-6));
  }
  THEN("the chain's arithmetic is the block's products at its pipe share") {
    const double pipe_us = k.pipe_flops / (gpu.pipe_rate(k.pipe, k.dtype) * k.pipe_efficiency);
    CHECK(gpu.cycles_to_us(compute_cycles) >= pipe_us);
  }
}

SCENARIO("a FlashAttention-2 forward block's serial part holds its own products (one K/V stage)") {
  const device::Device gpu(test::gpu_builder{}.build());
  auto a = efficient(64, 1024, 1024, 128);
  a.backend = wl::AttentionBackend::flash2;
  auto longer = a;
  longer.seq_kv = 2048;  // twice the key steps per block
  const auto k = main_kernel(a, gpu), k2 = main_kernel(longer, gpu);
  THEN("the serial part beyond the block's arithmetic does not grow with the keys") {
    CHECK(k2.fixed_cycles - models::lone_block_compute_cycles(k2, gpu) ==
          Approx(k.fixed_cycles - models::lone_block_compute_cycles(k, gpu)));
    CHECK(k2.fixed_cycles > k.fixed_cycles);
  }
}
