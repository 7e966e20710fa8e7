// A batch norm's transform reading a tensor the L2 holds (models/batch_norm_model.cpp,
// sim/warm_l2.h): in training the statistics kernel just read X, in a step the convolution before
// wrote it. It is there when X and the transform's output fit the L2's reuse share together (the
// transform's stores allocate lines that evict X's otherwise); then only the stores reach DRAM, and
// the transform's rounds (an effective issue limit, not DRAM latency) stay as long.
#include <catch2/catch.hpp>

#include "models/batch_norm_model.h"
#include "sim/kernel_timer.h"
#include "sim/warm_l2.h"
#include "support/gpu_builder.h"
#include "support/row_builder.h"

using namespace gpucast;

namespace {
// 10 MB of L2, reuse share 0.5: 5 MB.
device::Device l2_gpu() {
  return test::gpu_builder{}.l2_mb(10).set("cache.l2_reuse_fraction", "0.5").build();
}
const models::KernelPlan& kernel(const models::PlanOption& p, const char* part) {
  for (const auto& k : p.kernels)
    if (k.name.find(part) != std::string::npos) return k;
  FAIL("no kernel " << part);
  return p.kernels.front();
}
}  // namespace

SCENARIO("a training transform reads X from the L2 while X and its output fit the reuse share") {
  const device::Device gpu = l2_gpu();
  const double budget = gpu.l2_reuse_bytes();
  const long channels = 256;
  const long fits = long(budget / 2 / 2 / channels);  // 2 * X <= budget, bf16
  const auto warm = models::batch_norm_plan(test::batch_norm_op(fits, channels, true), gpu);
  const auto cold = models::batch_norm_plan(test::batch_norm_op(fits + 64, channels, true), gpu);
  const auto& w = kernel(warm, "transform_input");
  const auto& c = kernel(cold, "transform_input");
  CHECK(w.dram_bytes == Approx(w.dram_write_bytes));  // its stores only
  CHECK(c.dram_bytes == Approx(2 * c.dram_write_bytes));
  CHECK(w.warm_keeps_rounds);
  WHEN("the backward's dX, which reads X and dY") {
    const long fits3 = long(budget / 3 / 2 / channels);
    const auto warm3 = models::batch_norm_plan(test::batch_norm_op(fits3, channels, true, true), gpu);
    const auto cold3 = models::batch_norm_plan(test::batch_norm_op(fits3 + 64, channels, true, true), gpu);
    const auto& w3 = kernel(warm3, "elemt");
    const auto& c3 = kernel(cold3, "elemt");
    CHECK(w3.dram_bytes == Approx(w3.dram_write_bytes));
    CHECK(c3.dram_bytes == Approx(3 * c3.dram_write_bytes));
  }
}

SCENARIO("a transform whose loads hit the L2 keeps its rounds") {
  const device::Device gpu = l2_gpu();
  const auto p = models::batch_norm_plan(test::batch_norm_op(64 * 1024, 64, false), gpu);
  const auto& k = kernel(p, "transform_input");
  const sim::KernelTiming t = sim::time_kernel(k, gpu);
  CHECK(t.l2_input_exec_us == t.exec_us);
  models::KernelPlan shortened = k;
  shortened.warm_keeps_rounds = false;
  CHECK(sim::time_kernel(shortened, gpu).l2_input_exec_us < t.exec_us);
}

SCENARIO("a batch norm finds the convolution's output past a copy that moved nothing, while it fits") {
  const device::Device gpu = l2_gpu();
  const double budget = gpu.l2_reuse_bytes();
  // A 1x1 convolution writing n*p*q*k elements: 16 x 8 x 8 x 64 = 65,536 bf16 (128 KB).
  wl::Conv2dOp conv;
  conv.n = 16;
  conv.h = conv.w = 8;
  conv.c = conv.k = 64;
  conv.r = conv.s = 1;
  conv.dtype = DataType::bf16;
  const wl::Op producer{conv};
  const wl::Op copy{wl::CopyOp{256, wl::CopyKind::d2d}};  // a few bytes between them
  const wl::Op bn{test::batch_norm_op(16 * 8 * 8, 64, false)};
  CHECK(sim::warm_input(bn, 0, {{&producer, 1e5}, {&copy, 0}}, gpu).read_bytes == 131072);
  // A kernel between that moved bytes ends the look back.
  CHECK(sim::warm_input(bn, 0, {{&producer, 1e5}, {&copy, 256}}, gpu).read_bytes == 0);
  WHEN("X and the batch norm's output no longer fit the reuse share together") {
    conv.n = long(budget / 2 / (8 * 8 * 64 * 2)) + 1;
    const wl::Op big{conv};
    const wl::Op bn_big{test::batch_norm_op(conv.n * 8 * 8, 64, false)};
    CHECK(sim::warm_input(bn_big, 0, {{&big, 1e5}}, gpu).read_bytes == 0);
  }
}
