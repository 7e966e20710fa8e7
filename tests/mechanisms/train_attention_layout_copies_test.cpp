// The layout copies around SDPA in a Llama-style training step (workloads/training_step.cpp): SDPA's
// output is [b, s, h, hd] in memory, so `o.transpose(1, 2).reshape(...)` copies nothing and its
// backward hands SDPA a strided gradient; the gradients reaching q's and k's
// `.view(...).transpose(1, 2)` (from RoPE's backward) and, under GQA, v's (from repeat_kv's sum) are
// contiguous [b, h, s, hd], so ViewBackward0's reshape copies each. Source:
// `ViewBackward0 > aten::reshape > aten::clone` in validation/runs/h100-sxm/trace-llama*-train.json.gz,
// 2 a layer on the 125M model (MHA), 3 on the 1B (GQA), and no copy between SDPA and o_proj.
#include <catch2/catch.hpp>

#include "support/train_step.h"

using namespace gpucast;

SCENARIO("SDPA's output and output gradient need no copy; q, k (and v under GQA) gradients do") {
  auto step = [](int kv_heads) {
    auto c = test::tiny_llama();
    c.kv_heads = kv_heads;
    return wl::generate_training_step(c, test::train_step_options(wl::Precision::amp)).workload;
  };
  const auto gqa = step(2), mha = step(4);
  THEN("no attention-output copy, forward or backward") {
    CHECK(test::count_kernels(gqa, "attn_out") == 0);
    CHECK(test::count_kernels(mha, "attn_out") == 0);
  }
  THEN("ViewBackward0 copies: q and k always, v only through repeat_kv") {
    const int layers = test::tiny_llama().layers;
    CHECK(test::count_kernels(mha, ".grad_view_copy") == size_t(2 * layers));
    CHECK(test::count_kernels(gqa, ".grad_view_copy") == size_t(3 * layers));
    CHECK(test::count_kernels(mha, "v_proj.grad_view_copy") == 0);
    const auto& v = test::elementwise_named(gqa, "l0.bwd.v_proj.grad_view_copy");
    const auto c = test::tiny_llama();
    CHECK(double(v.elements) == 2.0 * 128 * c.kv_heads * (c.d_model / c.heads));
    CHECK_FALSE(v.contiguous);
  }
  THEN("each copy comes right before its projection's backward") {
    CHECK(test::position_of(gqa, "l0.bwd.q_proj.grad_view_copy") + 1 ==
          test::position_of(gqa, "l0.bwd.q_proj.wgrad"));
  }
  THEN("repeat_kv's gradient sums `rep` strided inputs per output element") {
    const auto& k = test::elementwise_named(gqa, "l0.bwd.repeat_kv_k_grad");
    CHECK(k.inputs == 2);  // 4 heads over 2 K/V heads
    CHECK_FALSE(k.contiguous);
  }
}
