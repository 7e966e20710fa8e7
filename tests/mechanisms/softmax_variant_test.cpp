// Which softmax kernel PyTorch runs (SoftMax.cu host_softmax, models/row_models.cpp), each switch at
// its boundary, and what the vector width does to the three-pass kernel's instruction count.
#include <catch2/catch.hpp>

#include "sim/op_predictor.h"
#include "support/gpu_builder.h"
#include "support/row_builder.h"

using namespace gpucast;

namespace {
std::string kernel(wl::Count cols, DataType t) {
  const sim::OpPredictor p(test::gpu_builder{}.build());
  return p.rank_options(test::softmax_op(64, cols, t)).front().option;
}
}  // namespace

SCENARIO("rows of up to 2,048 elements take the warp kernel; 2,049 a block per row") {
  CHECK(kernel(2048, DataType::fp32) == "softmax_warp_forward");
  CHECK(kernel(2049, DataType::fp32) == "cunn_SoftMaxForwardReg");
}

SCENARIO(
    "a row stages in shared memory only below 48 KB less the reduction's floats: 12,252 fp32, not 12,256") {
  // 1024 threads: 32 warps x 4 B of reduction space; 12,252 x 4 B = 49,008 B < 49,152 - 128.
  CHECK(kernel(12252, DataType::fp32) == "cunn_SoftMaxForwardSmem");
  CHECK(kernel(12256, DataType::fp32) == "cunn_SoftMaxForward");
}

SCENARIO("an odd row length loses the shared-memory kernel: 16,384 bf16 stages, 16,383 reads three times") {
  CHECK(kernel(16384, DataType::bf16) == "cunn_SoftMaxForwardSmem");
  CHECK(kernel(16383, DataType::bf16) == "cunn_SoftMaxForward");
}

SCENARIO(
    "16-bit rows cost fewer instructions per element than fp32 in the three-pass kernel (8 vs 4 per "
    "vector)") {
  const sim::OpPredictor p(test::gpu_builder{}.build());
  // One row each, instruction-bound on one SM: the bf16 row finishes first although it has as many elements.
  const double bf16 = p.rank_options(test::softmax_op(1, 131072, DataType::bf16)).front().exec_us;
  const double fp32 = p.rank_options(test::softmax_op(1, 131072, DataType::fp32)).front().exec_us;
  CHECK(bf16 < 0.9 * fp32);
}
