// reduce_kernel<512, ...> is compiled under C10_LAUNCH_BOUNDS_2(512, 4) (ATen's Reduce.cuh): 32
// registers a thread, so four 512-thread blocks share an SM of 65,536 registers and 2,048 threads.
#include <catch2/catch.hpp>

#include "sim/op_predictor.h"
#include "support/gpu_builder.h"

using namespace gpucast;

SCENARIO("four 512-thread reduce_kernel blocks are resident per SM: 400 blocks on 100 SMs are one wave") {
  const sim::OpPredictor p(test::gpu_builder{}.sms(100).build());
  wl::RowOp r;
  r.kind = wl::RowOpKind::reduce;
  r.dtype = DataType::fp32;
  r.cols = 768;  // 32 threads across a row, 16 rows per 512-thread block
  r.rows = 400 * 16;
  const auto t = p.rank_options(r).front();
  REQUIRE(t.kernels.size() == 1);
  CHECK(t.kernels[0].blocks == 400);
  CHECK(t.kernels[0].blocks_per_sm == 4);
  CHECK(t.kernels[0].waves == Approx(1.0));
}
