// cuDNN's sm90 convolution kernels' segment-K mode (models/gemm_model.cpp, GemmShape::segment_k):
// a grid of more than one wave and under two, over an executed K of at least 4,096, runs one
// persistent CTA per SM, each taking an equal share of all tiles' K iterations.
#include <catch2/catch.hpp>

#include <string>

#include "models/gemm_model.h"
#include "support/gpu_builder.h"

using namespace gpucast;

namespace {
// 128x128 tiles only; `tiles_m` tiles along M, one along N, on the test GPU's 100 SMs.
models::GemmShape shape(double tiles_m, double k) {
  models::GemmShape g;
  g.m = 128 * tiles_m;
  g.n = 128;
  g.k = k;
  g.in = g.out = DataType::bf16;
  g.cluster_multicast = false;
  g.segment_k = true;
  g.tiles = {{128, 128}};
  return g;
}

const models::PlanOption* segment_k(const std::vector<models::PlanOption>& options) {
  for (const auto& o : options)
    if (o.name == "gemm 128x128 segment-k") return &o;
  return nullptr;
}
}  // namespace

SCENARIO("120 tiles on 100 SMs at K = 4,096 run segment-K: 100 CTAs share 1.2 tiles of work each") {
  const device::Device gpu(test::gpu_builder{}.build());
  const auto options = models::gemm_options(shape(120, 4096), gpu);
  const auto* o = segment_k(options);
  REQUIRE(o != nullptr);
  const auto& k = o->kernels.back();
  CHECK(k.blocks == 100);
  CHECK(k.pipe_flops == Approx(2.0 * 128 * 128 * 4096 * 1.2));
}

SCENARIO("segment-K needs K of 4,096, more than one wave and under two") {
  const device::Device gpu(test::gpu_builder{}.build());
  CHECK(segment_k(models::gemm_options(shape(120, 4032), gpu)) == nullptr);  // K just under
  CHECK(segment_k(models::gemm_options(shape(100, 8192), gpu)) == nullptr);  // one wave exactly
  CHECK(segment_k(models::gemm_options(shape(101, 8192), gpu)) != nullptr);
  CHECK(segment_k(models::gemm_options(shape(199, 8192), gpu)) != nullptr);
  CHECK(segment_k(models::gemm_options(shape(200, 8192), gpu)) == nullptr);  // two waves
}

SCENARIO("a cuBLAS GEMM (no segment-K flag) never gets a segment-K option") {
  const device::Device gpu(test::gpu_builder{}.build());
  auto g = shape(120, 8192);
  g.segment_k = false;
  CHECK(segment_k(models::gemm_options(g, gpu)) == nullptr);
}
