// FlashAttention-2's forward splits the keys of a grid too small for the GPU
// (models/attention_flash2_splits.h): below 0.8 of twice the SMs in 64-row query tiles it runs the
// split-KV kernel and a combine kernel; at the fill it runs its one forward kernel (and never cuDNN's
// workspace memset).
#include <catch2/catch.hpp>

#include "models/attention_flash2_splits.h"
#include "models/op_model.h"
#include "support/attention_builder.h"
#include "support/gpu_builder.h"

using namespace gpucast;

namespace {
wl::AttentionOp prefill(wl::Count heads) {
  return test::attention_builder{}
      .batch(1)
      .heads(heads)
      .seq_q(64)
      .seq_kv(512)
      .head_dim(64)
      .backend(wl::AttentionBackend::flash2)
      .build();
}
std::vector<models::KernelPlan> kernels(const wl::AttentionOp& a) {
  const device::Device gpu(test::gpu_builder{}.build());  // 100 SMs: 200 slots, the split below 160 tiles
  return models::plan_op(a, gpu).front().kernels;
}
}  // namespace

SCENARIO("the split rule: none at 0.8 of the slots; below, the fewest splits within 0.85 of the best") {
  CHECK(models::flash2_num_splits(160, 100, 2) == 1);
  CHECK(models::flash2_num_splits(80, 100, 2) == 2);  // 0.4 of a wave unsplit, 0.8 split in two
  CHECK(models::flash2_num_splits(80, 100, 1) == 1);  // one key block: nothing to split
}

SCENARIO("160 query tiles on 100 SMs run one forward kernel; 80 run the split kernel and its combine") {
  const auto whole = kernels(prefill(160));
  REQUIRE(whole.size() == 1);
  CHECK(whole[0].blocks == 160);
  const auto split = kernels(prefill(80));
  REQUIRE(split.size() == 2);
  CHECK(split[0].blocks == 80 * 2);
  CHECK(split[0].name.find("2 KV splits") != std::string::npos);
  CHECK(split[1].name == "split-KV combine");
}
