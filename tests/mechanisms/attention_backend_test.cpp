// Which attention kernel runs (models/attention_model.cpp): `auto` follows PyTorch's SDPA dispatch
// for the architecture; a backend the GPU cannot run is an error that names what would run; the
// math backend is its unfused ops added up; where flash decoding does not fit an SM, PyTorch's
// memory-efficient kernel runs instead of failing.
#include <catch2/catch.hpp>

#include "common/errors.h"
#include "models/op_model.h"
#include "sim/op_predictor.h"
#include "support/attention_builder.h"
#include "support/gpu_builder.h"

using namespace gpucast;
using test::gpu_builder;

namespace {
wl::AttentionOp attention(wl::Count seq_q, wl::AttentionBackend backend) {
  return test::attention_builder{}
      .batch(4)
      .heads(32)
      .seq_q(seq_q)
      .seq_kv(2048)
      .head_dim(128)
      .dtype(DataType::fp16)
      .backend(backend)
      .build();
}
hw::GpuSpec hopper() {
  return gpu_builder{}.tensor_tflops("fp16", 400).set("efficiency.tensor.fp16", "1.0").build();
}
hw::GpuSpec ampere() {
  return gpu_builder{}
      .tensor_tflops("fp16", 400)
      .set("efficiency.tensor.fp16", "1.0")
      .set("architecture", "\"ampere\"")
      .set("compute_capability", "\"8.0\"")
      .set("sm.shared_memory_kb", "164.0")
      .build();
}
hw::GpuSpec turing() {
  return gpu_builder{}
      .tensor_tflops("fp16", 65)
      .set("efficiency.tensor.fp16", "1.0")
      .set("architecture", "\"turing\"")
      .set("compute_capability", "\"7.5\"")
      .set("sm.max_threads", "1024")
      .set("sm.max_blocks", "16")
      .set("sm.shared_memory_kb", "64.0")
      .build();
}
hw::GpuSpec cdna3() {  // an AMD matrix-core GPU: "gfx942", 64-wide wavefronts, 64 KB of LDS
  return gpu_builder{}
      .tensor_tflops("fp16", 1300)
      .set("efficiency.tensor.fp16", "1.0")
      .set("vendor", "\"AMD\"")
      .set("architecture", "\"cdna3\"")
      .set("compute_capability", "\"gfx942\"")
      .set("sm.warp_size", "64")
      .set("sm.shared_memory_kb", "64.0")
      .build();
}
}  // namespace

SCENARIO("on AMD's matrix-core GPUs auto runs PyTorch ROCm's flash attention, decode its split-KV kernel") {
  sim::OpPredictor amd(cdna3());
  const auto prefill = attention(2048, wl::AttentionBackend::automatic);
  CHECK(amd.predict(prefill).option == amd.predict(attention(2048, wl::AttentionBackend::flash2)).option);
  CHECK(amd.predict(attention(1, wl::AttentionBackend::automatic)).option.find("decoding") !=
        std::string::npos);
  CHECK_NOTHROW(amd.predict(attention(2048, wl::AttentionBackend::flash2)));
}

SCENARIO("auto picks cuDNN's warpgroup kernel on Hopper and FlashAttention-2 on Ampere") {
  const auto a = attention(2048, wl::AttentionBackend::automatic);
  sim::OpPredictor h(hopper()), m(ampere());
  CHECK(h.predict(a).option == h.predict(attention(2048, wl::AttentionBackend::cudnn)).option);
  CHECK(m.predict(a).option == m.predict(attention(2048, wl::AttentionBackend::flash2)).option);
  AND_THEN("FlashAttention-2 on Hopper runs the slower warp-level kernel") {
    CHECK(h.predict(attention(2048, wl::AttentionBackend::flash2)).duration_us > h.predict(a).duration_us);
  }
}

SCENARIO("on Turing, auto runs the memory-efficient kernel and decode does not fail") {
  sim::OpPredictor t(turing());
  CHECK_NOTHROW(t.predict(attention(2048, wl::AttentionBackend::automatic)));
  CHECK_NOTHROW(t.predict(attention(1, wl::AttentionBackend::automatic)));
  CHECK(t.predict(attention(1, wl::AttentionBackend::automatic)).option.find("decoding") ==
        std::string::npos);
  AND_THEN("asking for FlashAttention-2 there is an error that says what would run") {
    CHECK_THROWS_WITH(t.predict(attention(2048, wl::AttentionBackend::flash2)), Catch::Contains("efficient"));
    CHECK_THROWS_WITH(t.predict(attention(1, wl::AttentionBackend::flash2)), Catch::Contains("efficient"));
  }
}

SCENARIO("math attention takes the time of its unfused ops added up") {
  // Which ops it runs: attention_math_test.cpp.
  sim::OpPredictor p(hopper());
  auto a = attention(2048, wl::AttentionBackend::math);
  a.dtype = DataType::fp32;
  const double total = p.predict(a).exec_us;  // a copy: later predictions may rehash the cache
  double parts = 0;
  const auto options = models::plan_op(a, device::Device(hopper()));
  for (const auto& sub : options.front().sub_ops) parts += p.predict(sub).exec_us;
  CHECK(total == Approx(parts));
}
