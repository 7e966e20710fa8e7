// A one-row FlashAttention-2 forward over a single key block (models/attention_single_block.h): the
// ordinary forward kernel, not the split-KV decode path; one key more and the decode path returns.
// And the PyTorch-style generator sends a one-token forward to FlashAttention-2
// (workloads/training_step.cpp).
#include <catch2/catch.hpp>

#include "models/attention_single_block.h"
#include "models/op_model.h"
#include "support/attention_builder.h"
#include "support/chosen_plan.h"
#include "support/gpu_builder.h"
#include "workloads/training_step.h"

using namespace gpucast;

namespace {
wl::AttentionOp one_row(wl::Count seq_kv, wl::AttentionBackend backend) {
  return test::attention_builder{}
      .batch(16)
      .heads(12)
      .seq_q(1)
      .seq_kv(seq_kv)
      .head_dim(64)
      .causal()
      .backend(backend)
      .build();
}
}  // namespace

SCENARIO("FlashAttention-2: one row over 128 keys runs the forward kernel, over 129 the split-KV decode") {
  CHECK(test::plan_name(one_row(128, wl::AttentionBackend::flash2)).find("flash attention fwd") !=
        std::string::npos);
  CHECK(test::plan_name(one_row(129, wl::AttentionBackend::flash2)).find("flash decoding") == 0);
}

SCENARIO("cuDNN keeps its decode kernel for one row over one key block") {
  CHECK(test::plan_name(one_row(1, wl::AttentionBackend::cudnn)).find("decoding") != std::string::npos);
  CHECK_FALSE(models::flash2_single_block_forward(one_row(1, wl::AttentionBackend::cudnn),
                                                  wl::AttentionBackend::cudnn));
}

SCENARIO("PyTorch's SDPA runs a one-token forward on FlashAttention-2, two tokens on the default backend") {
  wl::TransformerConfig c;
  c.name = "tiny";
  c.layers = 1;
  c.d_model = 256;
  c.heads = c.kv_heads = 4;
  c.ffn = 512;
  c.vocab = 1000;
  wl::GenerateOptions g;
  g.mode = wl::Mode::prefill;
  g.batch = 2;
  g.precision = wl::Precision::bf16;
  auto backend_at = [&](wl::Count seq) {
    g.seq = seq;
    const auto w = wl::generate_training_step(c, g).workload;
    for (const auto& k : w.kernels())
      if (const auto* a = std::get_if<wl::AttentionOp>(&k.op)) return a->backend;
    FAIL("no attention kernel");
    return wl::AttentionBackend::math;
  };
  CHECK(backend_at(1) == wl::AttentionBackend::flash2);
  CHECK(backend_at(2) == wl::AttentionBackend::automatic);
}
