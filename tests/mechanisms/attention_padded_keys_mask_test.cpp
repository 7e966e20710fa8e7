// Keys that end inside a KV tile: a warpgroup forward block masks its last key tile element by
// element, as a causal block its diagonal tile (models/attention_model.cpp, kPaddedKeysMaskedTiles):
// the diagonal's share of a step on the products (kCausalDiagonalMaskSteps, 0.3) and its lane
// instructions per score of the tile (kCausalMaskInstructionsPerScore, 16).
#include <catch2/catch.hpp>

#include "models/op_model.h"
#include "support/attention_builder.h"
#include "support/gpu_builder.h"

using namespace gpucast;

namespace {
models::KernelPlan cudnn_forward(wl::Count seq_kv, bool causal = false) {
  const device::Device gpu(test::gpu_builder{}.build());
  const auto a = test::attention_builder{}
                     .batch(4)
                     .heads(16)
                     .seq_q(1024)
                     .seq_kv(seq_kv)
                     .head_dim(128)
                     .causal(causal)
                     .backend(wl::AttentionBackend::cudnn)
                     .build();
  return models::plan_op(a, gpu).front().kernels.back();
}
}  // namespace

SCENARIO("keys ending inside a 128-key tile mask the block's last tile as causal masks its diagonal") {
  GIVEN("1,024 keys (eight whole tiles) and 1,000 (eight, the last partial)") {
    const auto whole = cudnn_forward(1024);
    const auto padded = cudnn_forward(1000);
    THEN("the same eight steps; the padded block's products pay 0.3 of a step more") {
      CHECK(padded.pipe_flops == Approx(whole.pipe_flops));
      CHECK(whole.pipe_efficiency / padded.pipe_efficiency == Approx(1 + 0.3 / 8));
    }
    THEN("and 16 lane instructions per score of its 128 x 128 tile") {
      CHECK(padded.simt_instructions - whole.simt_instructions == Approx(16 * 128.0 * 128.0));
    }
  }
  GIVEN("a causal grid over 1,000 keys") {
    THEN("its diagonal tile is the one masked tile: no second mask") {
      const auto causal_padded = cudnn_forward(1000, true);
      const auto causal_whole = cudnn_forward(1024, true);
      CHECK(causal_padded.simt_instructions - 8 * causal_padded.pipe_flops / (4 * 128) ==
            Approx(16 * 128.0 * 128.0));
      CHECK(causal_whole.simt_instructions - 8 * causal_whole.pipe_flops / (4 * 128) ==
            Approx(16 * 128.0 * 128.0));
    }
  }
}
