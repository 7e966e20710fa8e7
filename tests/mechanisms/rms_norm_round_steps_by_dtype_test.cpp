// Vector steps per dependent DRAM round trip of a latency-bound RMS norm, by dtype (models/row_models.cpp,
// kRmsNormFp32StepsPerRound, kRmsNorm16BitStepsPerRound): fp32 rows (16-byte vectors) share a round
// trip between 1.4 steps, 16-bit rows (8-byte vectors, converted to fp32) between 1.1; the bytes in
// flight stay 1.25 vectors per thread for both.
#include <catch2/catch.hpp>

#include "models/row_models.h"
#include "support/gpu_builder.h"

using namespace gpucast;

namespace {

models::KernelPlan rms_kernel(wl::Count cols, DataType dtype) {
  const device::Device gpu = test::gpu_builder{}.build();
  wl::RowOp r;
  r.kind = wl::RowOpKind::rmsnorm;
  r.rows = 1;
  r.cols = cols;
  r.dtype = dtype;
  return models::RowOpModel{}.plan(wl::Op{r}, gpu).at(0).kernels.at(0);
}

}  // namespace

SCENARIO("an fp32 RMS norm shares a round trip between 1.4 vector steps, a 16-bit one between 1.1") {
  GIVEN("one fp32 row of 7 vectors per thread (3,584 columns) and one of 8 (4,096)") {
    THEN("ceil(7 / 1.4) = 5 round trips a pass, then ceil(8 / 1.4) = 6 (two passes each)") {
      CHECK(rms_kernel(3584, DataType::fp32).dram_rounds == 10);
      CHECK(rms_kernel(4096, DataType::fp32).dram_rounds == 12);
    }
  }
  GIVEN("one bf16 row of 11 vectors per thread (5,632 columns) and one of 12 (6,144)") {
    THEN("ceil(11 / 1.1) = 10 round trips a pass, then ceil(12 / 1.1) = 11 (two passes each)") {
      CHECK(rms_kernel(5632, DataType::bf16).dram_rounds == 20);
      CHECK(rms_kernel(6144, DataType::bf16).dram_rounds == 22);
    }
  }
  GIVEN("the same row in fp16 and fp32") {
    THEN("both keep 1.25 four-element vectors per thread in flight, of their own element size") {
      CHECK(rms_kernel(5120, DataType::fp16).bytes_in_flight == Approx(1.25 * 128 * 4 * 2));
      CHECK(rms_kernel(5120, DataType::fp32).bytes_in_flight == Approx(1.25 * 128 * 4 * 4));
    }
  }
}
