// Backward passes of norms and embeddings (models/backward_kernels.h), each rule at its boundary.
#include <catch2/catch.hpp>

#include "sim/op_predictor.h"
#include "support/gpu_builder.h"
#include "support/row_builder.h"

using namespace gpucast;

namespace {
sim::OpTiming embedding_backward(wl::Count vocab, wl::Count dim, wl::Count tokens,
                                 DataType t = DataType::bf16) {
  const sim::OpPredictor p(test::gpu_builder{}.build());
  wl::EmbeddingOp e;
  e.vocab = vocab;
  e.dim = dim;
  e.tokens = tokens;
  e.dtype = t;
  e.backward = true;
  return p.rank_options(e).front();
}
sim::OpTiming norm_backward(wl::Count hidden) {
  const sim::OpPredictor p(test::gpu_builder{}.build());
  return p.rank_options(test::row_builder{}.layernorm().rows(4096).cols(hidden).backward().build()).front();
}
}  // namespace

SCENARIO("embedding backward scatters directly up to 3,072 indices and sorts them above") {
  CHECK(embedding_backward(32000, 4096, 3072).option == "embedding_dense_backward (direct)");
  CHECK(embedding_backward(32000, 4096, 3073).option == "embedding_dense_backward (sorted)");
}

SCENARIO("zeroing a weight gradient over 2^31 bytes takes two fill launches") {
  // 131072 x 4096 fp32 = 2^31 bytes: one fill; one more row: two.
  CHECK(embedding_backward(131072, 4096, 1, DataType::fp32).kernels.size() == 2);  // fill + scatter
  CHECK(embedding_backward(131073, 4096, 1, DataType::fp32).kernels.size() == 3);
}

SCENARIO("norm backward is an input-gradient kernel and a weight-gradient column reduction") {
  const auto t = norm_backward(4096);
  REQUIRE(t.kernels.size() == 2);
  CHECK(t.kernels[0].name == "layer_norm_grad_input_kernel_vectorized");
  CHECK(t.kernels[1].name.find("GammaBetaBackwardCUDAKernel") == 0);
}

SCENARIO("a norm row that is not a whole number of 4-element vectors takes the scalar input-gradient kernel") {
  CHECK(norm_backward(4100).kernels[0].name == "layer_norm_grad_input_kernel_vectorized");
  CHECK(norm_backward(4098).kernels[0].name == "layer_norm_grad_input_kernel");
}
