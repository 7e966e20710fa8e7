// The split-K choice (models/gemm_model.cpp): a GEMM with few output tiles and a long K splits K
// across blocks to fill the SMs; one with enough tiles does not.
#include <catch2/catch.hpp>

#include "sim/op_predictor.h"
#include "support/gemm_builder.h"
#include "support/gpu_builder.h"

using namespace gpucast;

namespace {
std::string chosen(wl::Count m, wl::Count n, wl::Count k) {
  const wl::GemmOp g = test::gemm_op(m, n, k);
  const sim::OpPredictor p(test::gpu_builder{}.build());
  return p.rank_options(g).front().option;
}
}  // namespace

SCENARIO("a 128x128 output with K = 65536 splits K to fill 100 SMs") {
  CHECK(chosen(128, 128, 65536).find("split-k") != std::string::npos);
}

SCENARIO("an 8192x8192 output already fills every SM many times and never splits K") {
  CHECK(chosen(8192, 8192, 8192).find("split-k") == std::string::npos);
}
