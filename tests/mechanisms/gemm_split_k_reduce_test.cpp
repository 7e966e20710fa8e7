// cuBLAS's split-K (models/gemm_model.cpp): each split writes its own slice of the fp32 workspace,
// so no memset runs first; a cublasLt::splitKreduce_kernel sums them, with a fixed duration of its
// own (kReduceStartupCycles); and the sm75 16-bit fallback splits K whenever its 64x64 tiles would
// fill under half of the SMs.
#include <catch2/catch.hpp>

#include <string>

#include "device/device.h"
#include "models/gemm_model.h"
#include "models/op_model.h"
#include "support/gemm_builder.h"
#include "support/gpu_builder.h"

using namespace gpucast;

namespace {
// The shape GemmModel gives a 16-bit align1 GEMM (the sm75 fallback).
models::GemmShape fallback(double m, double n, double k) {
  models::GemmShape g = test::gemm_shape(m, n, k);
  g.warp_mma = g.unaligned_fallback = g.register_staged = g.exposed_epilogue = true;
  g.cluster_multicast = false;
  g.split_max_fill = 0.5;  // GemmModel::plan's kFallbackSplitMaxFill for these kernels
  return g;
}

bool has_unsplit(const std::vector<models::PlanOption>& options) {
  for (const auto& o : options)
    if (o.kernels.size() == 1) return true;
  return false;
}
}  // namespace

SCENARIO("a split-K option is its GEMM kernel and a reduce kernel, with no workspace memset") {
  const device::Device gpu(test::gpu_builder{}.sms(132).build());
  models::GemmShape g;
  g.m = 128;
  g.n = 128;
  g.k = 16384;
  int split_options = 0;
  for (const auto& o : models::gemm_options(g, gpu)) {
    if (o.name.find("split-k") == std::string::npos) continue;
    ++split_options;
    REQUIRE(o.kernels.size() == 2);
    CHECK(o.kernels.front().name == o.name);
    CHECK(o.kernels.back().name == "split-k reduce");
    THEN("the reduce kernel carries its own 2,000-cycle fixed duration") {
      CHECK(o.kernels.back().startup_cycles == Approx(2000));
    }
  }
  CHECK(split_options > 0);
}

SCENARIO("the sm75 fallback splits K when its 64x64 tiles fill under half of the SMs") {
  const device::Device gpu(test::gpu_builder{}.sms(132).build());
  // Half of 132 SMs is 66 tiles: 65 are under it, 66 are not.
  GIVEN("65 tiles of 64x64: 5 x 13 tiles") {
    const auto options = models::gemm_options(fallback(5 * 64, 13 * 64, 1024), gpu);
    THEN("no option runs unsplit") {
      CHECK_FALSE(has_unsplit(options));
    }
  }
  GIVEN("66 tiles of 64x64: 6 x 11 tiles") {
    const auto options = models::gemm_options(fallback(6 * 64, 11 * 64, 1024), gpu);
    THEN("the unsplit kernels remain options") {
      CHECK(has_unsplit(options));
    }
  }
  GIVEN("a K of a single 32-element step, which cannot be split") {
    const auto options = models::gemm_options(fallback(64, 64, 13), gpu);
    THEN("it runs unsplit") {
      CHECK(has_unsplit(options));
    }
  }
  GIVEN("a K of two steps: each split takes one") {
    const auto options = models::gemm_options(fallback(64, 64, 64), gpu);
    CHECK_FALSE(has_unsplit(options));
    bool two = false;
    for (const auto& o : options) two = two || o.name.find("split-k 2") != std::string::npos;
    CHECK(two);
  }
}
