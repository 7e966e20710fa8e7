// The math attention backend's forward is a chain of eager ops issued by the host
// (models/attention_model.cpp): one eager op's host time for each kernel it launches, the causal
// mask's and _safe_softmax's small kernels included, and for each view op (at::matmul's expands,
// reshapes and _unsafe_view, k's transpose) that launches nothing, spent between the launches; and
// a library op's host time for each library call: the SDPA entry and the two bmm calls into cuBLAS.
#include <catch2/catch.hpp>

#include "models/op_model.h"
#include "support/attention_builder.h"
#include "support/gpu_builder.h"

using namespace gpucast;

namespace {
constexpr double kEagerUs = 10;
constexpr double kLibraryUs = 3;

wl::AttentionOp math_forward(bool causal) {
  return test::attention_builder{}
      .batch(1)
      .heads(8)
      .head_dim(64)
      .causal(causal)
      .backend(wl::AttentionBackend::math)
      .build();
}
models::PlanOption plan(const wl::AttentionOp& a) {
  const device::Device gpu(
      test::gpu_builder{}.host_eager_us(kEagerUs).set("launch.host_library_us", "3").build());
  return models::plan_op(a, gpu).front();
}
}  // namespace

SCENARIO("the math forward's host spends an eager op per launch and per view op") {
  GIVEN("a bf16 forward without a mask: its kernels, _safe_softmax's fill and eleven views") {
    const auto o = plan(math_forward(false));
    CHECK(o.host_between_launches);
    CHECK(o.host_us == Approx((double(o.sub_ops.size()) + 1 + 11) * kEagerUs + 3 * kLibraryUs));
  }
  GIVEN("a causal one: five more kernels for the mask") {
    const auto o = plan(math_forward(true));
    CHECK(o.host_us == Approx((double(o.sub_ops.size()) + 1 + 5 + 11) * kEagerUs + 3 * kLibraryUs));
  }
}

SCENARIO("the math forward's library calls cost the host a library op's time each") {
  GIVEN("a GPU whose library ops cost the host nothing over an eager op") {
    const device::Device gpu(
        test::gpu_builder{}.host_eager_us(kEagerUs).set("launch.host_library_us", "0").build());
    const auto o = models::plan_op(math_forward(false), gpu).front();
    THEN("the forward costs its eager ops only") {
      CHECK(o.host_us == Approx((double(o.sub_ops.size()) + 1 + 11) * kEagerUs));
    }
  }
}
