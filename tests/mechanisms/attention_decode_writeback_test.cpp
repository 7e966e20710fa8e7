// The decode kernel reads the whole KV cache and writes one row per head: the dirty L2 lines its
// reads evict are written back while it streams (models/attention_model.cpp, models/l2_writeback.h),
// up to the L2's dirty share for a long context.
#include <catch2/catch.hpp>

#include "models/l2_writeback.h"
#include "models/op_model.h"
#include "support/attention_builder.h"
#include "support/gpu_builder.h"

using namespace gpucast;

namespace {
wl::AttentionOp decode(wl::Count seq_kv) {
  return test::attention_builder{}
      .batch(8)
      .heads(32)
      .kv_heads(8)
      .seq_q(1)
      .seq_kv(seq_kv)
      .head_dim(128)
      .build();
}
}  // namespace

SCENARIO("a decode kernel's reads evict the L2's dirty lines") {
  const device::Device gpu(test::gpu_builder{}.build());
  for (wl::Count kv : {512, 8192, 32768}) {
    const auto k = models::plan_op(decode(kv), gpu).front().kernels.front();
    const double kv_bytes = 2.0 * 8 * 8 * double(kv) * 128 * 2;
    const double q_bytes = 8.0 * 32 * 128 * 2;
    CHECK(k.dirty_evicted_bytes * k.blocks ==
          Approx(models::evicted_dirty_bytes(kv_bytes + q_bytes, 1, gpu)));
  }
  THEN("a long context evicts about the L2's dirty share") {
    const auto k = models::plan_op(decode(32768), gpu).front().kernels.front();
    CHECK(k.dirty_evicted_bytes * k.blocks == Approx(gpu.l2_dirty_bytes()).epsilon(0.01));
  }
}
