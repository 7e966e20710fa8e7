// The PyTorch training step of a GPT-2-style model (learned positions, LayerNorm, fused QKV with
// biases, GELU, lm_head tied to the token embedding): the kernels eager PyTorch launches for it.
#include <catch2/catch.hpp>

#include <algorithm>

#include "common/errors.h"
#include "workloads/training_step.h"

using namespace gpucast;

namespace {
wl::TransformerConfig tiny_gpt() {
  wl::TransformerConfig c;
  c.name = "tiny-gpt";
  c.layers = 2;
  c.d_model = 256;
  c.heads = c.kv_heads = 4;
  c.ffn = 1024;
  c.vocab = 1001;
  c.swiglu = c.rmsnorm = c.rope = false;
  c.bias = c.tied_embeddings = true;
  c.max_positions = 512;
  return c;
}

wl::GenerateOptions train(wl::Precision p, int batch = 2) {
  wl::GenerateOptions g;
  g.mode = wl::Mode::train;
  g.batch = batch;
  g.seq = 128;
  g.precision = p;
  return g;
}

size_t count(const wl::Workload& w, const std::string& part) {
  return size_t(std::count_if(w.kernels().begin(), w.kernels().end(),
                              [&](const wl::Kernel& k) { return k.name.find(part) != std::string::npos; }));
}
}  // namespace

SCENARIO("a GPT-2 step: one LayerNorm kernel per norm, a bias-gradient sum per linear, one tied table") {
  const auto c = tiny_gpt();
  const auto amp = wl::generate_training_step(c, train(wl::Precision::amp));
  const auto& w = amp.workload;
  const size_t linears = 4 * 2;  // c_attn, attention c_proj, c_fc, MLP c_proj per layer
  CHECK(count(w, "layer_norm") - count(w, "layer_norm_grad") == 2 * 2 + 1);
  CHECK(count(w, "layer_norm_grad_input") == 2 * 2 + 1);
  CHECK(count(w, ".bgrad_sum") == linears);
  CHECK(count(w, ".cast_b") == linears);
  CHECK(count(w, ".cast_w") == linears + 1);  // and the tied lm_head weight
  CHECK(count(w, "gelu") == 2 * 2);           // forward and backward
  CHECK(count(w, "split_grad_cat") == 2);
  THEN("the lm_head's and the embedding's gradients of the tied table are added once") {
    CHECK(count(w, "embed_grad_tied_add") == 1);
  }
  THEN("parameters: token and position tables, 12 tensors per layer, the final norm; the lm_head is tied") {
    const auto numels = wl::gpt_parameter_numels(c);
    CHECK(numels.size() == 2 + 12 * 2 + 2);
    double params = 0;
    for (double n : numels) params += n;
    CHECK(amp.parameters == Approx(params));
    CHECK(params == Approx(1001 * 256 + 512 * 256 + 2 * (12 * 256.0 * 256 + 9 * 256 + 1024) + 2 * 256));
  }
}

SCENARIO("a GPT-2 position gradient is summed over the batch only when there is more than one sequence") {
  const auto c = tiny_gpt();
  CHECK(count(wl::generate_training_step(c, train(wl::Precision::bf16, 1)).workload, "wpe_grad_batch_sum") ==
        0);
  CHECK(count(wl::generate_training_step(c, train(wl::Precision::bf16, 2)).workload, "wpe_grad_batch_sum") ==
        1);
}

SCENARIO("a GPT-2 step longer than its learned positions is an error naming --seq") {
  auto o = train(wl::Precision::bf16);
  o.seq = 513;
  CHECK_THROWS_AS(wl::generate_training_step(tiny_gpt(), o), InputError);
  o.seq = 512;
  CHECK_NOTHROW(wl::generate_training_step(tiny_gpt(), o));
}
