// RoPE in a Llama-style training step (workloads/training_step.cpp) as PyTorch runs it: q and k
// are transposed views, cos/sin [seq, hd] broadcast over [b, h, seq, hd], so the multiplies run the
// strided kernel with one broadcast operand; rotate_half's cat (and SplitBackward0's) is
// CatArrayBatchedCopy with its per-dimension index division; the backward's accumulation of the
// two gradients of q (or k) is strided unless the gradient arrives contiguous, which it does for K
// under GQA (through repeat_kv's sum). Source: the kernel names and shapes of
// validation/runs/h100-sxm/trace-llama1b-train.json.gz (GQA) and trace-llama125m-train.json.gz.
#include <catch2/catch.hpp>

#include "support/train_step.h"
#include "workloads/cat_copy.h"

using namespace gpucast;

SCENARIO("RoPE's multiplies broadcast cos and sin, its cat divides per dimension") {
  const auto c = test::tiny_llama();
  const auto o = test::train_step_options(wl::Precision::bf16);
  const auto w = wl::generate_training_step(c, o).workload;
  for (const char* name : {"l0.rope_q_mul_cos", "l0.rope_q_mul_sin", "l0.bwd.rope_q_mul_sin_grad",
                           "l0.bwd.rope_q_mul_cos_grad"}) {
    const auto& e = test::elementwise_named(w, name);
    CHECK(e.inputs == 1);
    CHECK(e.broadcast_inputs == 1);
    CHECK_FALSE(e.contiguous);
  }
  THEN("the q + rotate_half(q) add reads two full operands of different layouts") {
    const auto& e = test::elementwise_named(w, "l0.rope_q_add");
    CHECK(e.inputs == 2);
    CHECK_FALSE(e.contiguous);
  }
  THEN("the forward cat and the backward's un-chunking cat: 4-D, the division per dimension") {
    CHECK(test::elementwise_named(w, "l0.rope_q_cat").flops_per_element == 4 * wl::kCatDivisionFlopsPerDim);
    CHECK(test::elementwise_named(w, "l0.bwd.rope_k_unchunk").flops_per_element ==
          4 * wl::kCatDivisionFlopsPerDim);
  }
}

SCENARIO("RoPE's gradient accumulation is contiguous only for K under grouped-query attention") {
  auto accumulate = [](int kv_heads, const char* which) {
    auto c = test::tiny_llama();
    c.kv_heads = kv_heads;
    const auto w = wl::generate_training_step(c, test::train_step_options(wl::Precision::bf16)).workload;
    return test::elementwise_named(w, std::string("l0.bwd.rope_") + which + "_grad_accumulate").contiguous;
  };
  GIVEN("GQA (2 K/V heads for 4 query heads)") {
    CHECK(accumulate(2, "k"));
    CHECK_FALSE(accumulate(2, "q"));
  }
  GIVEN("multi-head attention (4 K/V heads)") {
    CHECK_FALSE(accumulate(4, "k"));
    CHECK_FALSE(accumulate(4, "q"));
  }
}
