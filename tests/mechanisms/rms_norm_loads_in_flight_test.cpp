// Vector loads in flight per thread in vectorized_layer_norm_kernel (models/row_models.cpp,
// kRmsNormLoadsInFlight): RMS norm's one-FMA sum of squares lets a thread keep 1.25 vector loads in
// flight, layer norm's dividing Welford chain one. (The dependent rounds of an fp32 RMS norm share
// 1.4 vector steps each: tests/mechanisms/rms_norm_round_steps_by_dtype_test.cpp.)
#include <catch2/catch.hpp>

#include "models/row_models.h"
#include "support/gpu_builder.h"

using namespace gpucast;

namespace {

models::KernelPlan norm_kernel(wl::RowOpKind kind, wl::Count rows, wl::Count cols) {
  const device::Device gpu = test::gpu_builder{}.build();
  wl::RowOp r;
  r.kind = kind;
  r.rows = rows;
  r.cols = cols;
  r.dtype = DataType::fp32;
  return models::RowOpModel{}.plan(wl::Op{r}, gpu).at(0).kernels.at(0);
}

}  // namespace

SCENARIO("an RMS norm keeps 1.25 vector loads in flight per thread, a layer norm one") {
  GIVEN("one row of 5,120 fp32 columns: ten 4-element vectors per thread of 128") {
    const auto rms = norm_kernel(wl::RowOpKind::rmsnorm, 1, 5120);
    const auto layer = norm_kernel(wl::RowOpKind::layernorm, 1, 5120);
    THEN("layer norm waits a DRAM round trip per vector in each pass (the weight's first touch)") {
      CHECK(layer.dram_rounds == 20);
      CHECK(layer.bytes_in_flight == 128 * 4 * 4);
    }
    THEN("RMS norm waits ceil(10 / 1.4) = 8 round trips a pass and keeps 1.25 vectors in flight") {
      CHECK(rms.dram_rounds == 16);
      CHECK(rms.bytes_in_flight == Approx(1.25 * 128 * 4 * 4));
    }
  }
  GIVEN("one row of 5,632 columns: eleven vectors per thread") {
    THEN("a partial group of loads still costs a whole round trip: ceil(11 / 1.4) = 8 a pass") {
      CHECK(norm_kernel(wl::RowOpKind::rmsnorm, 1, 5632).dram_rounds == 16);
    }
  }
}
