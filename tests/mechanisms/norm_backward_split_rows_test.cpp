// The norm backward's weight gradient over many rows and few columns (models/backward_kernels.cpp,
// kGammaBetaSplitMinRows): above 64 x 1,024 rows, with fewer 32-column blocks than half the SMs,
// PyTorch splits the rows across one-warp blocks that write column partials and sums them with
// .sum(0), a launch per gradient (layer_norm_kernel.cu, LaunchGammaBetaBackwardCUDAKernel).
#include <catch2/catch.hpp>

#include "models/row_models.h"
#include "support/gpu_builder.h"
#include "support/row_builder.h"

using namespace gpucast;

namespace {

std::vector<models::KernelPlan> backward_kernels(const device::Device& gpu, wl::RowOpKind kind,
                                                 wl::Count rows, wl::Count cols) {
  const auto r =
      test::row_builder{}.kind(kind).rows(rows).cols(cols).dtype(DataType::bf16).backward().build();
  return models::RowOpModel{}.plan(wl::Op{r}, gpu).at(0).kernels;
}

}  // namespace

SCENARIO("the weight gradient splits the rows across blocks above 65,536 rows of few columns") {
  const device::Device gpu(test::gpu_builder{}.sms(100).build());
  GIVEN("65,536 rows of 768 columns") {
    const auto kernels = backward_kernels(gpu, wl::RowOpKind::layernorm, 65536, 768);
    THEN("one block per 32 columns walks every row") {
      REQUIRE(kernels.size() == 2);
      CHECK(kernels[1].name == "GammaBetaBackwardCUDAKernel<32, 32>");
      CHECK(kernels[1].blocks == 24);
    }
  }
  GIVEN("65,537 rows of 768 columns (24 column blocks, under half of 100 SMs)") {
    const auto layer = backward_kernels(gpu, wl::RowOpKind::layernorm, 65537, 768);
    const auto rms = backward_kernels(gpu, wl::RowOpKind::rmsnorm, 65537, 768);
    THEN("one-warp blocks cover 24 x min(32,768 / 24, ceil(65,537 / 32)) tiles, then a sum per gradient") {
      REQUIRE(layer.size() == 4);
      CHECK(layer[1].name == "GammaBetaBackwardCUDAKernel<32, 1, 32> (partial)");
      CHECK(layer[1].threads == 32);
      CHECK(layer[1].blocks == 24 * 1365);
      CHECK(layer[2].name == "sum(0) of the partial weight gradients");
      CHECK(rms.size() == 3);  // RMS norm has no bias gradient
    }
  }
  GIVEN("65,537 rows of 1,600 columns (50 column blocks, not under half of 100 SMs) and of 1,596 (49)") {
    THEN("only the narrower one splits") {
      CHECK(backward_kernels(gpu, wl::RowOpKind::layernorm, 65537, 1600).size() == 2);
      CHECK(backward_kernels(gpu, wl::RowOpKind::layernorm, 65537, 1596).size() == 4);
    }
  }
}
