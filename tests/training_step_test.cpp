// The PyTorch training step: each precision and optimizer choice emits the kernels and memory
// eager PyTorch has, and multi_tensor_apply launches split where PyTorch splits them.
#include <catch2/catch.hpp>

#include <algorithm>

#include "support/transformer_builder.h"
#include "workloads/training_step.h"

using namespace gpucast;

namespace {
using test::tiny_llama;

wl::GenerateOptions train(wl::Precision p, wl::Optimizer o = wl::Optimizer::adamw) {
  wl::GenerateOptions g;
  g.mode = wl::Mode::train;
  g.batch = 2;
  g.seq = 128;
  g.precision = p;
  g.optimizer = o;
  return g;
}

size_t count(const wl::Workload& w, const std::string& part) {
  return size_t(std::count_if(w.kernels().begin(), w.kernels().end(),
                              [&](const wl::Kernel& k) { return k.name.find(part) != std::string::npos; }));
}
}  // namespace

SCENARIO("multi_tensor_apply launches split at 320 blocks of 65536 elements and at the tensor limit") {
  CHECK(wl::multi_tensor_launches({320.0 * 65536}, 1).size() == 1);
  CHECK(wl::multi_tensor_launches({320.0 * 65536 + 1}, 1).size() == 2);
  CHECK(wl::multi_tensor_launches(std::vector<double>(36, 100), 4).size() == 1);
  CHECK(wl::multi_tensor_launches(std::vector<double>(37, 100), 4).size() == 2);
  const auto l = wl::multi_tensor_launches({100, 200}, 1);
  REQUIRE(l.size() == 1);
  CHECK(l[0] == 300);
}

SCENARIO("amp casts the fp32 master weights each step; pure bf16 does not") {
  const auto c = tiny_llama();
  const auto amp = wl::generate_training_step(c, train(wl::Precision::amp));
  const auto bf16 = wl::generate_training_step(c, train(wl::Precision::bf16));
  const size_t linears = 7 * 2 + 1;  // q, k, v, o, gate, up, down per layer, lm_head
  CHECK(count(amp.workload, ".cast_w") == linears);
  CHECK(count(amp.workload, ".wgrad_to_fp32") == linears);
  CHECK(count(bf16.workload, ".cast_w") == 0);
  THEN("cross-entropy's nll_loss runs on fp32 log-probabilities under amp") {
    CHECK(count(amp.workload, "log_probs_to_fp32") == 1);
    CHECK(count(bf16.workload, "log_probs_to_fp32") == 0);
  }
  THEN("memory: fp32 weights, grads and states under amp, half of it in bf16") {
    const double p = amp.parameters;
    CHECK(amp.memory.gradients == Approx(4 * p));
    CHECK(bf16.memory.gradients == Approx(2 * p));
    CHECK(amp.memory.optimizer == Approx(3 * 4 * p));  // m, v and foreach's denominator list
    CHECK(bf16.memory.optimizer == Approx(3 * 2 * p));
  }
}

SCENARIO("each optimizer emits its launches") {
  const auto c = tiny_llama();
  const auto numels = wl::llama_parameter_numels(c);
  const auto foreach = wl::generate_training_step(c, train(wl::Precision::bf16, wl::Optimizer::adamw));
  const auto fused = wl::generate_training_step(c, train(wl::Precision::bf16, wl::Optimizer::adamw_fused));
  const auto sgd = wl::generate_training_step(c, train(wl::Precision::bf16, wl::Optimizer::sgd));
  size_t expected = 0;
  for (int depth : {1, 2, 1, 3, 2, 1, 1, 3}) expected += wl::multi_tensor_launches(numels, depth).size();
  CHECK(count(foreach.workload, "opt.") == expected);
  CHECK(count(fused.workload, "opt.fused_adamw") == wl::multi_tensor_launches(numels, 4).size());
  CHECK(count(sgd.workload, "opt.sgd_add") == wl::multi_tensor_launches(numels, 2).size());
  CHECK(fused.memory.optimizer == Approx(2 * 2 * fused.parameters));
  CHECK(sgd.memory.optimizer == 0);
  THEN("the optimizer's Python is host work of its first launch") {
    const auto& k = *std::find_if(foreach.workload.kernels().begin(), foreach.workload.kernels().end(),
                                  [](const wl::Kernel& x) { return x.name.rfind("opt.", 0) == 0; });
    CHECK(k.host[wl::HostCategory::optimizer_step] == 1);
    CHECK(k.host[wl::HostCategory::optimizer_param] == double(numels.size()));
  }
}

SCENARIO("gradient accumulation and clipping add their kernels") {
  const auto c = tiny_llama();
  auto o = train(wl::Precision::amp);
  const auto one = wl::generate_training_step(c, o);
  o.grad_accum = 2;
  o.clip_grad = true;
  const auto two = wl::generate_training_step(c, o);
  const size_t params = wl::llama_parameter_numels(c).size();
  CHECK(count(two.workload, ".grad_accumulate") - 2 * count(one.workload, ".grad_accumulate") == params);
  CHECK(count(two.workload, "foreach_norm") > 0);
  CHECK(count(two.workload, "embed_grad_rows") == 2);  // 256 indices: the one-kernel path
  CHECK(two.items == 2 * one.items);
}

SCENARIO("every backward kernel is issued by the autograd engine, every forward kernel from Python") {
  const auto w = wl::generate_training_step(tiny_llama(), train(wl::Precision::bf16)).workload;
  for (const auto& k : w.kernels()) {
    CHECK(k.host[wl::HostCategory::launch] == 1);
    if (k.name.find(".bwd.") != std::string::npos) CHECK(k.host[wl::HostCategory::op_dispatch] == 0);
  }
}

SCENARIO("embedding backward sorts its indices above 3072 of them, as PyTorch does") {
  const auto c = tiny_llama();
  auto o = train(wl::Precision::bf16);
  o.batch = 24;  // 24 x 128 = 3072 indices: one kernel over the rows
  const auto at = wl::generate_training_step(c, o).workload;
  CHECK(count(at, "embed_grad_rows") == 1);
  CHECK(count(at, "embed_grad_sort") == 0);
  o.seq = 129;  // 3096 indices
  const auto over = wl::generate_training_step(c, o).workload;
  CHECK(count(over, "embed_grad_rows") == 0);
  CHECK(count(over, "embed_grad_sort") == 6);
}

SCENARIO("amp's residual adds mix the fp32 stream with the bf16 branch; pure bf16 adds one type") {
  const auto c = tiny_llama();
  auto residual = [&](wl::Precision p) {
    const auto w = wl::generate_training_step(c, train(p)).workload;
    const auto it = std::find_if(w.kernels().begin(), w.kernels().end(), [](const wl::Kernel& k) {
      return k.name.find("residual1") != std::string::npos;
    });
    REQUIRE(it != w.kernels().end());
    return std::get<wl::ElementwiseOp>(it->op);
  };
  const auto amp = residual(wl::Precision::amp);
  CHECK(amp.mixed_types);
  CHECK(amp.dtype == DataType::fp32);
  CHECK_FALSE(residual(wl::Precision::bf16).mixed_types);
}
