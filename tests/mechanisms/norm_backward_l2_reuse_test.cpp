// The norm backward's weight-gradient column reduction (GammaBetaBackwardCUDAKernel) runs right after
// the input-gradient kernel streamed dY and X and wrote dX (models/backward_kernels.cpp): while those
// three tensors and the row stats fit in the L2's reuse share, it reads them from the L2 and sends
// DRAM only its gradients; beyond it, it finds the reuse share's part of them there and reads the
// rest from DRAM.
#include <catch2/catch.hpp>

#include <cmath>

#include "device/device.h"
#include "sim/op_predictor.h"
#include "support/gpu_builder.h"
#include "support/row_builder.h"

using namespace gpucast;

namespace {
constexpr wl::Count kCols = 4096;    // 128 column blocks: never the rows-split path
constexpr double kElementBytes = 2;  // bf16
constexpr double kStatsBytes = 8;    // mean and rstd per row (fp32)

sim::KernelTiming weight_gradient(const device::Device& gpu, wl::Count rows) {
  const sim::OpPredictor p(gpu);
  return p.rank_options(test::row_builder{}.layernorm().rows(rows).cols(kCols).backward().build())
      .front()
      .kernels.at(1);
}
}  // namespace

SCENARIO(
    "the weight-gradient reduction reads from DRAM the share of dY, X and dX beyond the L2's reuse share") {
  const device::Device gpu(test::gpu_builder{}.sms(100).l2_mb(50).build());
  const double per_row = 3 * kCols * kElementBytes + kStatsBytes;
  const auto fitting = static_cast<wl::Count>(std::floor(gpu.l2_reuse_bytes() / per_row));
  const double gradient_bytes = 2 * kCols * kElementBytes;  // dgamma and dbeta
  GIVEN("as many 4,096-column bf16 rows as fit") {
    const auto warm = weight_gradient(gpu, fitting);
    THEN("it writes its two gradients and reads nothing from DRAM") {
      CHECK(warm.name.find("GammaBetaBackwardCUDAKernel") == 0);
      CHECK(warm.dram_bytes == Approx(gradient_bytes));
    }
  }
  GIVEN("one row more") {
    const auto rows = fitting + 1;
    const auto cold = weight_gradient(gpu, rows);
    THEN("it reads the share of dY, X and the row stats the reuse share no longer holds from DRAM") {
      const double missed = 1 - gpu.l2_reuse_bytes() / (double(rows) * per_row);
      CHECK(missed > 0);
      CHECK(cold.dram_bytes ==
            Approx(gradient_bytes + missed * double(rows) * (2 * kCols * kElementBytes + kStatsBytes)));
    }
  }
  GIVEN("four times as many rows as fit") {
    const auto rows = 4 * fitting;
    const auto cold = weight_gradient(gpu, rows);
    THEN("about three quarters of what it reads comes from DRAM") {
      const double reads = double(rows) * (2 * kCols * kElementBytes + kStatsBytes);
      CHECK((cold.dram_bytes - gradient_bytes) / reads == Approx(0.75).epsilon(0.01));
    }
  }
}
