// A warpgroup attention backward block's prologue (K and V tiles, zeroed dK and dV) and epilogue (dK
// and dV written) do not overlap its products (models/attention_backward.cpp): 4 steps' worth of
// work per block, so a block that walks more query tiles spends less per score.
#include <catch2/catch.hpp>

#include "models/op_model.h"
#include "support/gpu_builder.h"

using namespace gpucast;

namespace {
models::KernelPlan main_kernel(wl::AttentionBackend backend, wl::Count seq) {
  wl::AttentionOp a;
  a.batch = 1;
  a.heads = a.kv_heads = 16;
  a.seq_q = a.seq_kv = seq;
  a.head_dim = 128;
  a.dtype = DataType::bf16;
  a.backward = true;
  a.backend = backend;
  const device::Device gpu(test::gpu_builder{}.build());  // Hopper: cuDNN's warpgroup kernel
  const auto kernels = models::plan_op(a, gpu).front().kernels;
  return kernels[backend == wl::AttentionBackend::cudnn ? 2 : 3];
}
}  // namespace

SCENARIO("a cuDNN backward block charges its 64 x 64 steps and 4 more for its prologue and epilogue") {
  // 2,048 tokens: 32 query tiles a block; 4,096: 64.
  const double step_flops = 5 * 2 * 128.0 * 64 * 64;
  CHECK(main_kernel(wl::AttentionBackend::cudnn, 2048).pipe_flops == Approx(step_flops * (32 + 4)));
  CHECK(main_kernel(wl::AttentionBackend::cudnn, 4096).pipe_flops == Approx(step_flops * (64 + 4)));
}

SCENARIO("FlashAttention-2's backward (fit without it) charges its steps alone") {
  // 64 x 128 tiles at head_dim 128: 32 query tiles of 64 rows a block at 2,048 tokens.
  CHECK(main_kernel(wl::AttentionBackend::flash2, 2048).pipe_flops == Approx(5 * 2 * 128.0 * 64 * 128 * 32));
}
