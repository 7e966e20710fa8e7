// Attention (models/attention_model.cpp): decode splits the KV sequence to fill the GPU and streams
// K/V once per head group. The backward pass: attention_backward_test.cpp.
#include <catch2/catch.hpp>

#include <cmath>

#include "models/op_model.h"
#include "support/attention_builder.h"
#include "support/gpu_builder.h"

using namespace gpucast;

namespace {
wl::AttentionOp attention(wl::Count seq_q, wl::Count seq_kv, bool backward = false) {
  return test::attention_builder{}
      .batch(1)
      .heads(32)
      .kv_heads(8)
      .seq_q(seq_q)
      .seq_kv(seq_kv)
      .head_dim(128)
      .backward(backward)
      .build();
}
}  // namespace

SCENARIO("decode: 8 KV heads on 100 SMs split the KV sequence 25 ways (twice the SMs over the tiles)") {
  // FlashAttention-2's split-KV decoding; cuDNN's lean decoding: attention_lean_decode_test.cpp.
  const device::Device gpu = test::gpu_builder{}.build();
  auto a = attention(1, 8192);
  a.backend = wl::AttentionBackend::flash2;
  const auto options = models::plan_op(a, gpu);
  REQUIRE(options.size() == 1);
  const auto& k = options.front().kernels.front();
  // 4 query heads per KV head fit one 16-row tile: 8 tiles; ceil(2 x 100 / 8) = 25 splits.
  CHECK(k.blocks == 8 * 25);
  // K and V of the whole context stream from DRAM once.
  const double kv_bytes = 2.0 * 8 * 8192 * 128 * 2;
  CHECK(k.dram_bytes * k.blocks >= kv_bytes);
  CHECK(k.dram_bytes * k.blocks < 1.05 * kv_bytes);
}
