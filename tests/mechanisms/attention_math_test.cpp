// The math attention backend (models/attention_model.cpp) as PyTorch's unfused composition: the
// forward's ops in order, the causal mask as one more score-sized op, and the backward without a
// forward recompute.
#include <catch2/catch.hpp>

#include "models/op_model.h"
#include "support/attention_builder.h"
#include "support/gpu_builder.h"

using namespace gpucast;

namespace {
wl::AttentionOp math(bool causal, bool backward, DataType t = DataType::fp32) {
  return test::attention_builder{}
      .batch(1)
      .heads(8)
      .seq(512)
      .head_dim(64)
      .causal(causal)
      .backward(backward)
      .dtype(t)
      .backend(wl::AttentionBackend::math)
      .build();
}
std::size_t ops(const wl::AttentionOp& a) {
  const device::Device gpu(test::gpu_builder{}.build());
  return models::plan_op(a, gpu).front().sub_ops.size();
}
}  // namespace

SCENARIO("fp32 math forward: q and k scaled, Q K^T, softmax, the masked-row check (3 ops), P V") {
  CHECK(ops(math(false, false)) == 8);
  CHECK(ops(math(true, false)) == 9);  // the causal mask added to the scores
}

SCENARIO("half-precision math forward casts q, k, v up, P down and the output back: five more ops") {
  CHECK(ops(math(false, false, DataType::bf16)) == 8 + 5);
}

SCENARIO("fp32 math backward walks the saved graph: four products, two score-sized passes") {
  // Four products and the gradient's multiply as ops; the softmax's backward, which streams three
  // score-sized tensors (the gradient, the probabilities, dS), as the option's own kernel.
  CHECK(ops(math(false, true)) == 5);
  const device::Device gpu(test::gpu_builder{}.build());
  const auto option = models::plan_op(math(false, true), gpu).front();
  REQUIRE(option.kernels.size() == 1);
  const double scores = 8.0 * 512 * 512;
  CHECK(option.kernels[0].dram_bytes * option.kernels[0].blocks == Approx(3 * 4 * scores));
}
