// The autograd engine's input-gradient accumulation in a Llama-style training step
// (workloads/training_step.cpp): a tensor used by n ops gets its n gradients added in place as they
// arrive, n - 1 two-input adds. The attention input feeds q, k and v: two adds, not one three-input
// kernel (`aten::add_` [b, s, d] fp32: 7 a layer plus the final norm's one, 113 on the 16-layer 1B
// step of validation/runs/h100-sxm/trace-llama1b-train.json.gz).
#include <catch2/catch.hpp>

#include "support/train_step.h"

using namespace gpucast;

SCENARIO("the q, k and v input gradients are summed by two in-place adds") {
  const auto c = test::tiny_llama();
  const auto o = test::train_step_options(wl::Precision::amp);
  const auto w = wl::generate_training_step(c, o).workload;
  for (const char* name : {"l0.bwd.qkv_in_grad_accumulate_a", "l0.bwd.qkv_in_grad_accumulate_b"}) {
    const auto& e = test::elementwise_named(w, name);
    CHECK(e.inputs == 2);
    CHECK(e.dtype == DataType::fp32);  // autocast's fp32 stream
    CHECK(double(e.elements) == double(o.batch) * o.seq * c.d_model);
  }
  THEN("k's and v's gradients are added before q's arrives, then q's") {
    CHECK(test::position_of(w, "l0.bwd.qkv_in_grad_accumulate_a") <
          test::position_of(w, "l0.bwd.q_proj.wgrad"));
    CHECK(test::position_of(w, "l0.bwd.qkv_in_grad_accumulate_b") >
          test::position_of(w, "l0.bwd.q_proj.dgrad"));
  }
  THEN("seven [tokens, d] adds a layer, as in the trace") {
    size_t per_layer = 0;
    for (const char* part : {"qkv_in_grad_accumulate", "mlp_in_grad_accumulate", "residual_grad_accumulate",
                             "input_norm.grad_accumulate", "post_norm.grad_accumulate"})
      per_layer += test::count_kernels(w, std::string("l1.bwd.") + part);
    CHECK(per_layer == 7);
  }
}
