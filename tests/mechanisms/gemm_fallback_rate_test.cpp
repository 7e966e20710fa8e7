// The unaligned fallback's rate (models/gemm_alignment.h): its narrow loads, not the mma.sync pipe's
// sustained rate, set how fast it runs, so on Hopper it is a share of the nominal tensor peak at the
// reference mma.sync efficiency, whatever a description's own efficiency.mma_sync. Aligned GEMMs
// (wgmma) never read that efficiency either; a GPU before Hopper runs mma.sync as its library path.
#include <catch2/catch.hpp>

#include <string>

#include "sim/op_predictor.h"
#include "support/gemm_builder.h"
#include "support/gpu_builder.h"

using namespace gpucast;

namespace {
double exec_us(wl::Count m, const std::string& mma_sync_efficiency) {
  const wl::GemmOp g = test::gemm_builder{}.square(m).build();
  sim::OpPredictor p(test::gpu_builder{}.set("efficiency.mma_sync", mma_sync_efficiency).build());
  return p.predict(wl::Op(g)).exec_us;
}
}  // namespace

SCENARIO("an unaligned (odd) GEMM's fallback takes the same time at mma.sync efficiency 0.5 and 0.7") {
  CHECK(exec_us(4095, "0.5") == Approx(exec_us(4095, "0.7")));
}

SCENARIO("an aligned GEMM one element larger does not read the mma.sync efficiency at all") {
  CHECK(exec_us(4096, "0.5") == Approx(exec_us(4096, "0.7")));
}
