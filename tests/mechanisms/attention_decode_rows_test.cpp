// Which query-row counts run a decode kernel (models/attention_model.cpp): cuDNN's split-KV decode
// kernel for one query row only, its prefill kernel from two rows on; FlashAttention-2's split-KV path
// below 16 rows.
#include <catch2/catch.hpp>

#include "models/op_model.h"
#include "support/chosen_plan.h"
#include "support/gpu_builder.h"

using namespace gpucast;

namespace {
wl::AttentionOp attention(wl::Count seq_q, wl::AttentionBackend backend) {
  wl::AttentionOp a;
  a.batch = 1;
  a.heads = 32;
  a.kv_heads = 8;
  a.seq_q = seq_q;
  a.seq_kv = 4096;
  a.head_dim = 128;
  a.dtype = DataType::bf16;
  a.backend = backend;
  return a;
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
