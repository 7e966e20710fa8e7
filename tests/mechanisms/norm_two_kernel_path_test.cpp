// Layer and RMS norms over rows that are not whole 4-element vectors run two kernels
// (models/row_models.cpp, norm_plan_unvectorized): RowwiseMomentsCUDAKernel folds the row through
// ATen's WelfordOps (for RMS norm too), then LayerNormForwardCUDAKernel rereads X after the moments
// kernel has streamed all of it, so the reread finds X in the L2 only while the whole of X fits the
// L2's reuse share.
#include <catch2/catch.hpp>

#include <cmath>

#include "models/row_models.h"
#include "support/gpu_builder.h"

using namespace gpucast;

namespace {

constexpr wl::Count kCols = 4099;    // not a multiple of the 4-element vector
constexpr double kElementBytes = 4;  // fp32
constexpr double kStatsBytes = 8;    // mean and rstd per row (fp32)

std::vector<models::KernelPlan> norm_kernels(const device::Device& gpu, wl::RowOpKind kind, wl::Count rows) {
  wl::RowOp r;
  r.kind = kind;
  r.rows = rows;
  r.cols = kCols;
  r.dtype = DataType::fp32;
  return models::RowOpModel{}.plan(wl::Op{r}, gpu).at(0).kernels;
}

}  // namespace

SCENARIO("the two-kernel norm's forward kernel rereads X from DRAM once X outgrows the L2's reuse share") {
  const device::Device gpu(test::gpu_builder{}.sms(100).l2_mb(50).build());
  const double row_bytes = kCols * kElementBytes;
  const auto fitting = static_cast<wl::Count>(std::floor(gpu.l2_reuse_bytes() / row_bytes));
  const double params_bytes = 2 * row_bytes;  // weight and bias, read once
  GIVEN("as many 4,099-column fp32 rows as fit") {
    const auto kernels = norm_kernels(gpu, wl::RowOpKind::layernorm, fitting);
    THEN("the forward kernel's DRAM traffic per row is its write, the stats and its share of the weights") {
      REQUIRE(kernels.size() == 2);
      CHECK(kernels[1].name == "LayerNormForwardCUDAKernel");
      CHECK(kernels[1].dram_bytes == Approx(row_bytes + kStatsBytes + params_bytes / double(fitting)));
    }
  }
  GIVEN("one row more") {
    const auto rows = fitting + 1;
    const auto kernels = norm_kernels(gpu, wl::RowOpKind::layernorm, rows);
    THEN("every row is read from DRAM again") {
      CHECK(kernels[1].dram_bytes == Approx(2 * row_bytes + kStatsBytes + params_bytes / double(rows)));
    }
  }
}

SCENARIO("the two-kernel RMS norm's moments kernel runs the same Welford chain as layer norm's") {
  const device::Device gpu(test::gpu_builder{}.build());
  GIVEN("1,000 rows of 4,099 fp32 columns") {
    const auto rms = norm_kernels(gpu, wl::RowOpKind::rmsnorm, 1000).at(0);
    const auto layer = norm_kernels(gpu, wl::RowOpKind::layernorm, 1000).at(0);
    THEN("its per-block chain and instructions are layer norm's") {
      CHECK(rms.name == "RowwiseMomentsCUDAKernel (rms)");
      CHECK(rms.fixed_cycles == Approx(layer.fixed_cycles));
      CHECK(rms.simt_instructions == Approx(layer.simt_instructions));
    }
  }
}
