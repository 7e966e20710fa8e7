// FlashAttention-2's backward first copies out and dO into the kernel's layout
// (models/attention_backward.cpp): PyTorch's non-vectorized direct copy of a permuted view, bound by its
// per-element offset arithmetic (90 lane instructions per element), not by DRAM.
#include <catch2/catch.hpp>

#include "models/op_model.h"
#include "sim/kernel_timer.h"
#include "support/attention_builder.h"
#include "support/gpu_builder.h"

using namespace gpucast;

namespace {
wl::AttentionOp flash2_backward() {
  return test::attention_builder{}
      .batch(2)
      .heads(16)
      .seq(4096)
      .head_dim(128)
      .backward()
      .backend(wl::AttentionBackend::flash2)
      .build();
}
}  // namespace

SCENARIO("the flash backward's layout copies run 90 lane instructions per element, 4 elements a thread") {
  const device::Device gpu(test::gpu_builder{}.build());
  const auto copy = models::plan_op(flash2_backward(), gpu).front().kernels.front();
  const double elements = 2.0 * 16 * 4096 * 128;
  CHECK(copy.simt_instructions * copy.blocks == Approx(90 * elements));
  CHECK(copy.blocks * copy.threads * 4 == Approx(elements));
  THEN("twice the DRAM bandwidth leaves them as long: their instructions bound them") {
    const device::Device fast(test::gpu_builder{}.bandwidth_gbps(2 * gpu.rates().dram / 1e3).build());
    const auto fast_copy = models::plan_op(flash2_backward(), fast).front().kernels.front();
    CHECK(sim::time_kernel(fast_copy, fast).exec_us ==
          Approx(sim::time_kernel(copy, gpu).exec_us).epsilon(0.02));
  }
}
