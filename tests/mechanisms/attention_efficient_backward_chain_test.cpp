// The memory-efficient backward kernel (models/attention_backward.cpp): its warps and registers follow
// PyTorch's kernel_backward.h (queries x keys / 1024 warps, 12 warps per SM by __launch_bounds__),
// every block first sums rowsum(dO * O) over all of its head's query tiles (two dependent round trips
// a tile), then walks its steps at four dependent round trips each; the blocks of a wave wait and
// multiply together, so an SM's products add to the chain of each of its blocks.
#include <catch2/catch.hpp>

#include <cmath>

#include "models/attention_block_chain.h"
#include "models/op_model.h"
#include "sim/kernel_timer.h"
#include "support/attention_builder.h"
#include "support/gpu_builder.h"

using namespace gpucast;

namespace {
wl::AttentionOp efficient_backward(wl::Count batch, wl::Count heads, wl::Count seq, wl::Count head_dim) {
  return test::attention_builder{}
      .batch(batch)
      .heads(heads)
      .seq(seq)
      .head_dim(head_dim)
      .backward()
      .backend(wl::AttentionBackend::efficient)
      .build();
}
models::KernelPlan main_kernel(const wl::AttentionOp& a, const device::Device& gpu) {
  return models::plan_op(a, gpu).front().kernels.back();
}
// The backward's fixed serial cycles per block (models/attention_backward.cpp).
constexpr double kFixedCycles = 16000;
}  // namespace

SCENARIO("the memory-efficient backward runs queries x keys / 1024 warps, 12 warps per SM") {
  const device::Device gpu(test::gpu_builder{}.build());
  REQUIRE(gpu.cc_major() >= 8);
  GIVEN("head_dim 64: 64 x 64 tiles") {
    const auto k = main_kernel(efficient_backward(1, 8, 1024, 64), gpu);
    THEN("4 warps; three blocks per SM share the registers: 65536 / 384 = 170, 168 in steps of 8") {
      CHECK(k.threads == 128);
      CHECK(k.registers == 168);
    }
  }
  GIVEN("head_dim 128: 128 x 128 tiles") {
    const auto k = main_kernel(efficient_backward(1, 8, 1024, 128), gpu);
    THEN("16 warps, more than 12: the register file over one block's 512 threads, 128 each") {
      CHECK(k.threads == 512);
      CHECK(k.registers == 128);
    }
  }
}

SCENARIO("a memory-efficient backward block waits two round trips a query tile and four a step") {
  const device::Device gpu(test::gpu_builder{}.build());
  // 1,024 queries and keys in 64 x 64 tiles: 16 query tiles, 16 steps per key block.
  const auto k = main_kernel(efficient_backward(1, 8, 1024, 64), gpu);
  CHECK(k.dram_rounds == Approx(1 + 2 * 16 + 4 * 16));
  GIVEN("causal masking") {
    const auto causal = test::attention_builder{}
                            .heads(8)
                            .seq(1024)
                            .backward()
                            .causal()
                            .backend(wl::AttentionBackend::efficient)
                            .build();
    THEN("the steps are the average walk from the diagonal (8.5), the delta tiles stay all 16") {
      CHECK(main_kernel(causal, gpu).dram_rounds == Approx(1 + 2 * 16 + 4 * 8.5));
    }
  }
}

SCENARIO("a memory-efficient backward block's chain holds its SM's products") {
  const device::Device gpu(test::gpu_builder{}.build());
  const double sms = gpu.sms();
  GIVEN("one block per SM (16 heads x 4 key blocks on at least 64 SMs)") {
    const auto k = main_kernel(efficient_backward(1, 16, 256, 64), gpu);
    REQUIRE(k.blocks <= sms);
    THEN("the block's own products") {
      CHECK(k.fixed_cycles == Approx(kFixedCycles + models::lone_block_compute_cycles(k, gpu)));
    }
  }
  GIVEN("a grid three blocks deep on every SM") {
    const double key_blocks = 4;
    const auto batch = static_cast<wl::Count>(std::ceil(3 * sms / (16 * key_blocks)));
    const auto k = main_kernel(efficient_backward(batch, 16, 256, 64), gpu);
    REQUIRE(gpu.blocks_per_sm(k.resources(), k.name) == 3);
    THEN("the three blocks' products") {
      CHECK(k.fixed_cycles == Approx(kFixedCycles + 3 * models::lone_block_compute_cycles(k, gpu)));
    }
  }
}
