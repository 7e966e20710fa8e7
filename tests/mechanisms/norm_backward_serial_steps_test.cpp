// The norm backward's input-gradient kernel (models/backward_kernels.cpp): a step's arithmetic runs
// between its loads and the next step's, so a thread's own instructions (issued one every other
// cycle) add to the block's chain beside its round trips instead of hiding under them.
#include <catch2/catch.hpp>

#include "device/device.h"
#include "models/op_model.h"
#include "support/gpu_builder.h"
#include "support/row_builder.h"

using namespace gpucast;

namespace {
constexpr wl::Count kCols = 16384;
constexpr double kThreads = 128;
// Lane instructions per element of the layer-norm and RMS-norm input gradients (the model's).
constexpr double kLayerNormInstructions = 20;
constexpr double kRmsNormInstructions = 14;

models::KernelPlan grad_input(const device::Device& gpu, wl::RowOpKind kind) {
  const auto r = test::row_builder{}.kind(kind).rows(1).cols(kCols).dtype(DataType::fp32).backward().build();
  return models::plan_op(r, gpu).front().kernels.at(0);
}
}  // namespace

SCENARIO("one norm row's input gradient waits its threads' instructions beside its round trips") {
  const device::Device gpu(test::gpu_builder{}.build());
  GIVEN("a single fp32 row of 16,384 elements: the same steps and reductions for layer and RMS norm") {
    const auto layer = grad_input(gpu, wl::RowOpKind::layernorm);
    const auto rms = grad_input(gpu, wl::RowOpKind::rmsnorm);
    REQUIRE(layer.dram_rounds == rms.dram_rounds);
    THEN("layer norm's six more instructions per element, one every other cycle, lengthen its chain") {
      const double per_thread = (kLayerNormInstructions - kRmsNormInstructions) * kCols / kThreads;
      CHECK(layer.fixed_cycles - rms.fixed_cycles == Approx(per_thread / 0.5));
      CHECK(layer.simt_instructions - rms.simt_instructions == Approx(per_thread * kThreads));
    }
  }
}
