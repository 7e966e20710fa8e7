// cuDNN's decode kernel (models/attention_model.cpp, lean attention): no split where the (batch x KV
// head) tiles fill the SMs or the context is 512 keys or fewer; otherwise one block per SM, each an
// equal share of all the KV chunks (no wave quantization).
#include <catch2/catch.hpp>

#include <cmath>

#include "models/op_model.h"
#include "support/attention_builder.h"
#include "support/gpu_builder.h"

using namespace gpucast;

namespace {
wl::AttentionOp decode(wl::Count batch, wl::Count kv_heads, wl::Count seq_kv) {
  return test::attention_builder{}
      .batch(batch)
      .heads(32)
      .kv_heads(kv_heads)
      .seq_q(1)
      .seq_kv(seq_kv)
      .head_dim(128)
      .backend(wl::AttentionBackend::cudnn)
      .build();
}
models::KernelPlan main_kernel(const wl::AttentionOp& a) {
  const device::Device gpu(test::gpu_builder{}.build());  // 100 SMs
  return models::plan_op(a, gpu).front().kernels.front();
}
}  // namespace

SCENARIO("512 keys are not split; 640 keys (five chunks) spread over one block per SM") {
  CHECK(main_kernel(decode(1, 8, 512)).blocks == 8);
  CHECK(main_kernel(decode(1, 8, 640)).blocks == 100);
}

SCENARIO("tiles that fill the SMs are not split: 100 KV-head tiles on 100 SMs") {
  CHECK(main_kernel(decode(25, 4, 32768)).blocks == 100);
  CHECK(main_kernel(decode(25, 4, 32768)).name.find(", 1 KV splits") != std::string::npos);
}

SCENARIO("a split spreads all the chunks evenly: 8 tiles x 256 chunks over 100 blocks is 21 each") {
  CHECK(main_kernel(decode(1, 8, 32768)).blocks == 100);
  CHECK(main_kernel(decode(1, 8, 32768)).pipe_flops ==
        Approx(4 * 128.0 * 16 * 128 * std::ceil(8 * 256 / 100.0)));
}

SCENARIO("cuDNN's lean reduction pays its serial part whatever it moves; flash decoding's combine streams") {
  const device::Device gpu(test::gpu_builder{}.build());
  auto combine = [&](wl::Count batch, wl::Count seq_kv, wl::AttentionBackend backend) {
    auto a = decode(batch, 8, seq_kv);
    a.backend = backend;
    const auto kernels = models::plan_op(a, gpu).front().kernels;
    REQUIRE(kernels.size() == 2);
    return kernels.back();
  };
  const auto few = combine(1, 1024, wl::AttentionBackend::cudnn);    // 8 tiles over 100 blocks
  const auto many = combine(8, 32768, wl::AttentionBackend::cudnn);  // 64 tiles: 1-2 partials each
  CHECK(few.fixed_cycles == many.fixed_cycles);
  CHECK(gpu.cycles_to_us(few.fixed_cycles) > 1.5);
  const auto flash = combine(1, 1024, wl::AttentionBackend::flash2);
  CHECK(flash.fixed_cycles < few.fixed_cycles / 10);
}
