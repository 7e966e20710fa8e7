// cuDNN's sm90 implicit-GEMM convolution kernels over grids of more than two waves of tiles are
// preceded by a small Memset (models/conv_model.cpp, kSm90MemsetMinWaves): every such profile shows
// one, none of the grids of at most 1.5 waves. Pinned at the boundary on the test GPU's 100 SMs.
#include <catch2/catch.hpp>

#include <string>

#include "models/op_model.h"
#include "support/conv_builder.h"
#include "support/gpu_builder.h"

using namespace gpucast;

namespace {
// 3x3 "same" convolution, 128 bf16 channels in, 64 out: 64x64 tiles number n x hw x hw / 64.
wl::Conv2dOp conv(wl::Count hw) {
  return test::conv_builder{}.batch(8).channels(128).image(hw).filters(64).kernel(3).pad(1).build();
}

const models::PlanOption& option(const std::vector<models::PlanOption>& options, const std::string& tile) {
  for (const auto& o : options) {
    const std::string suffix = ": gemm " + tile;
    if (o.name.size() >= suffix.size() &&
        o.name.compare(o.name.size() - suffix.size(), suffix.size(), suffix) == 0)
      return o;
  }
  FAIL("no option ending in " << tile);
  return options.front();
}

bool memset_before_gemm(const models::PlanOption& o) {
  return o.kernels.size() == 2 && o.kernels.front().name == "workspace memset" &&
         o.kernels.back().pipe == device::Pipe::tensor;
}
}  // namespace

SCENARIO("an sm90 convolution grid of more than two waves runs a memset first; two waves exactly do not") {
  const device::Device gpu(test::gpu_builder{}.build());
  GIVEN("a 40x40 image: 8 x 1,600 / 64 = 200 tiles of 64x64, two waves exactly") {
    const auto options = models::plan_op(conv(40), gpu);
    const auto& o = option(options, "64x64");
    REQUIRE(o.kernels.back().blocks == 200);
    THEN("the kernel runs alone") {
      CHECK(o.kernels.size() == 1);
    }
  }
  GIVEN("a 41x41 image: 211 tiles of 64x64") {
    const auto options = models::plan_op(conv(41), gpu);
    const auto& o = option(options, "64x64");
    REQUIRE(o.kernels.back().blocks == 211);
    THEN("a memset precedes it") {
      CHECK(memset_before_gemm(o));
    }
  }
  GIVEN("the same 41x41 image on 128x64 tiles: 106 tiles, one wave and a few") {
    const auto options = models::plan_op(conv(41), gpu);
    const auto& o = option(options, "128x64");
    THEN("the kernel runs alone") {
      CHECK(o.kernels.size() == 1);
    }
  }
}
