// Which query-row counts run a decode kernel (models/attention_model.cpp): cuDNN's split-KV decode
// kernel for one query row only, its prefill kernel from two rows on; FlashAttention-2's split-KV path
// below 16 rows.
#include <catch2/catch.hpp>

#include "models/op_model.h"
#include "support/attention_builder.h"
#include "support/chosen_plan.h"
#include "support/gpu_builder.h"

using namespace gpucast;

namespace {
wl::AttentionOp attention(wl::Count seq_q, wl::AttentionBackend backend) {
  return test::attention_builder{}
      .batch(1)
      .heads(32)
      .kv_heads(8)
      .seq_q(seq_q)
      .seq_kv(4096)
      .head_dim(128)
      .backend(backend)
      .build();
}
}  // namespace

SCENARIO("cuDNN decodes one query row; two rows take its prefill kernel") {
  CHECK(test::plan_name(attention(1, wl::AttentionBackend::cudnn)).find("decoding") != std::string::npos);
  CHECK(test::plan_name(attention(2, wl::AttentionBackend::cudnn)).find("flash attention fwd") == 0);
}

SCENARIO("FlashAttention-2 decodes up to 15 query rows; 16 take its prefill kernels") {
  CHECK(test::plan_name(attention(15, wl::AttentionBackend::flash2)).find("flash decoding") == 0);
  // 32 heads of one 64-row tile: too few for the SMs, the prefill's split-KV kernel
  // (models/attention_flash2_splits.h).
  CHECK(test::plan_name(attention(16, wl::AttentionBackend::flash2)).find("flash attention split-KV fwd") ==
        0);
}
