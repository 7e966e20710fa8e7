// layer_norm_grad_input_kernel_vectorized steps through the row 4 elements a thread at a time
// whatever the dtype (models/backward_kernels.cpp): a 16-bit row takes as many dependent steps as an
// fp32 row of the same length, not half as many.
#include <catch2/catch.hpp>

#include "sim/op_predictor.h"
#include "support/gpu_builder.h"
#include "support/row_builder.h"

using namespace gpucast;

namespace {
sim::KernelTiming grad_input(wl::Count hidden, DataType t) {
  const sim::OpPredictor p(test::gpu_builder{}.build());
  return p.rank_options(test::row_builder{}.rmsnorm().rows(1).cols(hidden).dtype(t).backward().build())
      .front()
      .kernels.at(0);
}
}  // namespace

SCENARIO("one long norm row's input gradient waits as many round trips in bf16 as in fp32") {
  GIVEN("a single row of 16,384 elements (32 steps of 128 threads x 4 elements per pass)") {
    const auto bf16 = grad_input(16384, DataType::bf16);
    const auto fp32 = grad_input(16384, DataType::fp32);
    THEN("both are latency bound and take the same time") {
      CHECK(bf16.name == "layer_norm_grad_input_kernel_vectorized (rms)");
      CHECK(bf16.latency_us == Approx(fp32.latency_us).epsilon(0.01));
    }
  }
}
