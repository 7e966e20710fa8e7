// Warpgroup prefill kernels (cuDNN, FlashAttention-3 on Hopper) pay a start-up once per kernel besides
// each block's serial part (models/attention_model.cpp): two kernels' worth of blocks in one launch
// cost one start-up, and FlashAttention-2's warp-level kernel has none.
#include <catch2/catch.hpp>

#include "models/op_model.h"
#include "sim/kernel_timer.h"
#include "support/attention_builder.h"
#include "support/gpu_builder.h"

using namespace gpucast;

namespace {
wl::AttentionOp small(wl::AttentionBackend backend) {
  return test::attention_builder{}.batch(1).heads(8).seq(128).head_dim(64).backend(backend).build();
}
}  // namespace

SCENARIO("a one-step cuDNN prefill kernel lasts its start-up plus one block's serial part") {
  const device::Device gpu(test::gpu_builder{}.build());  // 1 GHz: cycles are ns
  const auto ks = models::plan_op(small(wl::AttentionBackend::cudnn), gpu).front().kernels;
  const auto& k = ks.back();
  CHECK(k.startup_cycles > 0);
  // 8 blocks on 100 SMs: one wave, bound by the block's serial cycles; the start-up adds once.
  const double with = sim::time_kernel(k, gpu).exec_us;
  auto none = k;
  none.startup_cycles = 0;
  CHECK(with - sim::time_kernel(none, gpu).exec_us == Approx(k.startup_cycles / 1000.0));
}

SCENARIO("FlashAttention-2's forward kernel has no start-up of its own") {
  const device::Device gpu(test::gpu_builder{}.build());
  const auto ks = models::plan_op(small(wl::AttentionBackend::flash2), gpu).front().kernels;
  CHECK(ks.back().startup_cycles == 0);
}
