// The weight-gradient kernel of norm backward (models/backward_kernels.cpp): PyTorch picks its block's
// height by the row count (GammaBetaBackwardCUDAKernelTemplate<32, 1 | 8 | 16 | 32>, 8 rows a thread
// an iteration), and each iteration waits two dependent round trips (the rows' statistics, then dY
// and X).
#include <catch2/catch.hpp>

#include "models/op_model.h"
#include "support/gpu_builder.h"
#include "support/row_builder.h"

using namespace gpucast;

namespace {
models::KernelPlan gamma_beta(wl::Count rows) {
  const device::Device gpu(test::gpu_builder{}.build());
  return models::plan_op(test::row_builder{}.layernorm().rows(rows).cols(4096).backward().build(), gpu)
      .front()
      .kernels.at(1);
}
}  // namespace

SCENARIO("63 rows run 32-thread blocks, one iteration; 64 rows run 32 x 8 threads") {
  CHECK(gamma_beta(63).threads == 32);
  CHECK(gamma_beta(63).dram_rounds == 2 * 8);  // 63 rows, 8 a thread: 8 iterations of two round trips
  CHECK(gamma_beta(64).threads == 256);
  CHECK(gamma_beta(64).dram_rounds == 2 * 1);  // 64 rows a block iteration
}

SCENARIO("from 256 rows the block is 32 x 32 threads, 256 rows an iteration") {
  CHECK(gamma_beta(255).threads == 512);
  CHECK(gamma_beta(256).threads == 1024);
  CHECK(gamma_beta(4096).dram_rounds == 2 * 16);
}
