// F.cross_entropy under autocast (workloads/training_step.cpp): log_softmax runs over the bf16
// logits (cunn_SoftMaxForward<8, BFloat16, float, BFloat16>), then autocast's fp32 nll_loss upcasts
// the log-probabilities; the backward casts nll_loss's fp32 gradient back to bf16 before
// cunn_SoftMaxBackward<8, BFloat16> (validation/runs/h100-sxm/trace-llama*-train.json.gz). Pure bf16
// runs it all in bf16, without casts.
#include <catch2/catch.hpp>

#include "support/train_step.h"

using namespace gpucast;

SCENARIO("amp's cross-entropy: bf16 log_softmax, fp32 nll_loss on upcast log-probabilities") {
  const auto c = test::tiny_llama();
  const auto o = test::train_step_options(wl::Precision::amp);
  const auto amp = wl::generate_training_step(c, o).workload;
  const auto bf16 = wl::generate_training_step(c, test::train_step_options(wl::Precision::bf16)).workload;
  const double n = double(o.batch) * o.seq * c.vocab;
  THEN("the forward: log_softmax in bf16, then the upcast of its T x V output") {
    const auto* ls = std::get_if<wl::RowOp>(&test::kernel_named(amp, "log_softmax").op);
    REQUIRE(ls != nullptr);
    CHECK(ls->dtype == DataType::bf16);
    const auto& up = test::elementwise_named(amp, "log_probs_to_fp32");
    CHECK(up.dtype == DataType::bf16);
    CHECK(up.out_dtype == DataType::fp32);
    CHECK(double(up.elements) == n);
    CHECK(test::position_of(amp, "log_softmax") < test::position_of(amp, "log_probs_to_fp32"));
  }
  THEN("the backward: the fp32 gradient cast to bf16, then log_softmax's backward in bf16") {
    CHECK(test::position_of(amp, "log_probs_grad_to_bf16") < test::position_of(amp, "log_softmax_grad"));
    CHECK(test::elementwise_named(amp, "log_softmax_grad").dtype == DataType::bf16);
  }
  THEN("pure bf16 casts nothing") {
    CHECK(test::count_kernels(bf16, "log_probs") == 0);
    CHECK(test::count_kernels(bf16, "logits_to") == 0);
  }
}
