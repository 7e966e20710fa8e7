// Fused attention backward (models/attention_backward.cpp): the kernels each backend launches around
// its main kernel, the main kernel parallel over key/value tiles running five products per tile, and
// causal key blocks walking only the query tiles from the diagonal on.
#include <catch2/catch.hpp>

#include <cmath>

#include "models/op_model.h"
#include "support/attention_builder.h"
#include "support/gpu_builder.h"

using namespace gpucast;

namespace {
wl::AttentionOp backward(wl::AttentionBackend backend, wl::Count kv_heads = 16, bool causal = false) {
  return test::attention_builder{}
      .batch(1)
      .heads(16)
      .kv_heads(kv_heads)
      .seq(2048)
      .head_dim(128)
      .causal(causal)
      .backward()
      .backend(backend)
      .build();
}
std::vector<models::KernelPlan> kernels(const wl::AttentionOp& a) {
  const device::Device gpu(test::gpu_builder{}.build());  // Hopper: cuDNN runs warpgroup kernels
  return models::plan_op(a, gpu).front().kernels;
}
}  // namespace

SCENARIO("cuDNN: memset, dot(dO, O), the main kernel, the dQ conversion; grouped heads add two sums") {
  CHECK(kernels(backward(wl::AttentionBackend::cudnn)).size() == 4);
  CHECK(kernels(backward(wl::AttentionBackend::cudnn, 4)).size() == 6);
}

SCENARIO("FlashAttention-2 copies out and dO first; the memory-efficient kernel only zeroes its dQ") {
  CHECK(kernels(backward(wl::AttentionBackend::flash2)).size() == 5);
  CHECK(kernels(backward(wl::AttentionBackend::efficient)).size() == 2);
}

SCENARIO("the main kernel runs five products per (query row, key) pair over key/value blocks") {
  // cuDNN's 64 x 64 tiles: 32 key blocks per head, each walking 32 query tiles, and its prologue and
  // epilogue charged as 4 steps' worth.
  const auto ks = kernels(backward(wl::AttentionBackend::cudnn));
  const auto& main = ks[2];
  CHECK(main.blocks == 16 * 32);
  CHECK(main.pipe_flops == Approx(5 * 2 * 128.0 * 64 * 64 * (32 + 4)));
}

SCENARIO("a causal key block walks the query tiles from the diagonal on: about half on average") {
  const auto full = kernels(backward(wl::AttentionBackend::cudnn))[2];
  const auto causal = kernels(backward(wl::AttentionBackend::cudnn, 16, true))[2];
  // Key block j walks 32 - j tiles: (32 + 1) / 2 on average over 32; both add the block's 4 serial
  // steps (its prologue and epilogue).
  CHECK(causal.pipe_flops / full.pipe_flops == Approx((16.5 + 4) / (32.0 + 4)));
}
