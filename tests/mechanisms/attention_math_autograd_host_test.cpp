// The math attention backend's backward is the autograd engine walking the forward's graph on the host
// (models/attention_model.cpp): torch.autograd.grad's own call, one eager op's host time per kernel and
// the engine's time per node, spent between the launches (sim/op_predictor.cpp), so a long kernel
// hides the host work behind it and a short graph is host bound.
#include <catch2/catch.hpp>

#include "models/op_model.h"
#include "sim/op_predictor.h"
#include "support/attention_builder.h"
#include "support/gpu_builder.h"

using namespace gpucast;

namespace {
constexpr double kEagerUs = 10;
constexpr double kNodeOverEager = 12.0 / 5.81;
constexpr double kCall = 21;

wl::AttentionOp math(bool causal, bool backward, DataType t, wl::Count seq = 512) {
  return test::attention_builder{}
      .batch(1)
      .heads(8)
      .seq(seq)
      .head_dim(64)
      .causal(causal)
      .backward(backward)
      .dtype(t)
      .backend(wl::AttentionBackend::math)
      .build();
}
device::Device gpu() {
  return device::Device(test::gpu_builder{}.host_eager_us(kEagerUs).build());
}
models::PlanOption plan(const wl::AttentionOp& a) {
  return models::plan_op(a, gpu()).front();
}
double launches(const models::PlanOption& o) {
  return double(o.kernels.size() + o.sub_ops.size());
}
}  // namespace

SCENARIO("the math backward's host time: the autograd call, a launch per kernel and the engine per node") {
  GIVEN("fp32 inputs: two matmuls of six nodes, q's and k's scale, k's transpose and the softmax") {
    const auto o = plan(math(false, true, DataType::fp32));
    CHECK(o.host_between_launches);
    CHECK(o.host_us == Approx((kCall + launches(o) + 16 * kNodeOverEager) * kEagerUs));
  }
  GIVEN("a causal mask: its add is one node more") {
    const auto o = plan(math(true, true, DataType::fp32));
    CHECK(o.host_us == Approx((kCall + launches(o) + 17 * kNodeOverEager) * kEagerUs));
  }
  GIVEN("bf16 inputs: the three casts up and the output's cast back are four nodes more") {
    const auto o = plan(math(true, true, DataType::bf16));
    CHECK(launches(o) == 12);
    CHECK(o.host_us == Approx((kCall + 12 + 21 * kNodeOverEager) * kEagerUs));
  }
  GIVEN("the forward: eager ops, no engine (attention_math_forward_host_test.cpp)") {
    const auto o = plan(math(true, false, DataType::bf16));
    CHECK(o.host_us == Approx((launches(o) + 1 + 5 + 11) * kEagerUs + 3 * gpu().launch().host_library_us));
  }
}

SCENARIO("host time spent between launches: short kernels wait for it, long ones hide it") {
  const device::Device g = gpu();
  sim::OpPredictor p(g);
  const auto& launch = g.launch();
  GIVEN("a short graph (512 tokens): the GPU waits for the host's last launch") {
    const auto a = math(false, true, DataType::bf16);
    const auto o = plan(a);
    const auto& t = p.predict(a);
    const double last_kernel_us = t.kernels.back().exec_us;
    THEN("it ends after the host's time less the flush ahead of it, and its last kernel") {
      CHECK(t.duration_us >= o.host_us - launch.flush_us + last_kernel_us - 1e-6);
    }
  }
  GIVEN("a long graph (8K tokens): the host issues while the kernels run") {
    const auto a = math(false, true, DataType::bf16, 8192);
    const auto o = plan(a);
    const auto& t = p.predict(a);
    THEN("only the first launch's share beyond the flush and the GPU's own overheads are exposed") {
      REQUIRE(t.kernels.front().exec_us > o.host_us);
      const double first_share_us = std::max(0.0, o.host_us / launches(o) - launch.flush_us);
      CHECK(t.overhead_us ==
            Approx(launch.standalone_overhead_us(int(launches(o)), true) + first_share_us).margin(1e-6));
    }
  }
}
