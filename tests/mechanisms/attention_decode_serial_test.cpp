// A decode block's serial part (prologue, Q and the first K/V stage, the final rescale and the
// partial store) is the warp-level prefill block's: 7,000 cycles (models/attention_model.cpp).
#include <catch2/catch.hpp>

#include "models/op_model.h"
#include "support/attention_builder.h"
#include "support/gpu_builder.h"

using namespace gpucast;

SCENARIO("decode blocks pay the prefill block's serial cycles") {
  const device::Device gpu(test::gpu_builder{}.build());
  for (wl::Count kv : {512, 1000, 32768}) {
    const auto a = test::attention_builder{}.heads(32).kv_heads(8).seq_q(1).seq_kv(kv).head_dim(128).build();
    CHECK(models::plan_op(a, gpu).front().kernels.front().fixed_cycles == 7000);
  }
}
