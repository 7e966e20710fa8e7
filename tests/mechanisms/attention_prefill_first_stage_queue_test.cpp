// A warpgroup prefill block's first step waits for its Q tile and first K/V stage, which the
// producer issues for every block of the wave at once (models/attention_model.cpp,
// kWarpgroupPrefillFirstStages): that round trip lasts the wave's bytes at the DRAM rate, so a
// one-step grid of many blocks takes longer than one of a few, though both are one wave.
#include <catch2/catch.hpp>

#include "models/op_model.h"
#include "sim/kernel_timer.h"
#include "support/attention_builder.h"
#include "support/gpu_builder.h"

using namespace gpucast;

namespace {
// One 128-token block per head: one step each.
models::KernelPlan one_step(wl::Count heads, const device::Device& gpu) {
  const auto a = test::attention_builder{}
                     .batch(1)
                     .heads(heads)
                     .seq(128)
                     .head_dim(64)
                     .backend(wl::AttentionBackend::cudnn)
                     .build();
  return models::plan_op(a, gpu).front().kernels.back();
}
}  // namespace

SCENARIO("a warpgroup prefill block's first loads queue behind the wave's") {
  const device::Device gpu(test::gpu_builder{}.sms(100).build());
  GIVEN("head_dim 64: a 128-row Q tile and one 128-key K and V stage in flight per block") {
    const auto k = one_step(8, gpu);
    CHECK(k.bytes_in_flight == Approx((128 * 64 + 2 * 128 * 64) * 2.0));
  }
  GIVEN("one wave of 8 blocks and one of 96") {
    const auto few = one_step(8, gpu);
    const auto many = one_step(96, gpu);
    REQUIRE(many.blocks <= gpu.sms());
    THEN("the larger wave's first round trip waits for its bytes: it lasts longer") {
      const double few_us = sim::time_kernel(few, gpu).exec_us;
      const double many_us = sim::time_kernel(many, gpu).exec_us;
      CHECK(many_us - few_us >= 0.5 * 88 * many.bytes_in_flight / gpu.rates().dram);
    }
    THEN("counted in flight, the larger wave's bytes lengthen it") {
      auto many0 = many;
      many0.bytes_in_flight = 0;
      CHECK(sim::time_kernel(many, gpu).exec_us > sim::time_kernel(many0, gpu).exec_us);
    }
  }
}
