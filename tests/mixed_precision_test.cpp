// Low-precision transformers: GEMMs run in the weights' type, everything between them in bf16, and
// the KV cache and attention never narrower than fp8 (workloads/mixed_precision.h).
#include <catch2/catch.hpp>

#include "workloads/generate.h"
#include "workloads/mixed_precision.h"

using namespace gpucast;

namespace {
wl::GeneratedModel decode(DataType t, int tp = 1) {
  wl::GenerateOptions o;
  o.mode = wl::Mode::decode;
  o.batch = 8;
  o.context = 1024;
  o.dtype = t;
  o.layers = 1;
  o.parallel.tp = tp;
  return wl::generate(wl::load_model("llama-2-70b"), o);
}
template <class T>
const T& op(const wl::Workload& w, const std::string& name) {
  for (const auto& k : w.kernels())
    if (k.name == name) return std::get<T>(k.op);
  FAIL("no kernel " << name);
  throw;
}
}  // namespace

SCENARIO("the type rules: bf16 between GEMMs below 16 bits, an fp8 KV cache below 8 bits") {
  CHECK(wl::activation_dtype(DataType::fp4) == DataType::bf16);
  CHECK(wl::activation_dtype(DataType::fp8) == DataType::bf16);
  CHECK(wl::activation_dtype(DataType::fp16) == DataType::fp16);
  CHECK(wl::activation_dtype(DataType::fp32) == DataType::fp32);
  CHECK(wl::kv_cache_dtype(DataType::fp4) == DataType::fp8);
  CHECK(wl::kv_cache_dtype(DataType::fp6) == DataType::fp8);
  CHECK(wl::kv_cache_dtype(DataType::fp8) == DataType::fp8);
  CHECK(wl::kv_cache_dtype(DataType::bf16) == DataType::bf16);
}

SCENARIO("an fp4 decode step runs its GEMMs in fp4, norms and TP all-reduces in bf16, attention in fp8") {
  const auto g = decode(DataType::fp4, 2);
  const auto& w = g.workload;
  CHECK(op<wl::GemmOp>(w, "l0.qkv").dtype == DataType::fp4);
  CHECK(op<wl::RowOp>(w, "l0.attn_norm").dtype == DataType::bf16);
  CHECK(op<wl::AttentionOp>(w, "l0.attention").dtype == DataType::fp8);
  const auto& ar = op<wl::CollectiveOp>(w, "l0.attn_all_reduce");
  CHECK(ar.dtype == DataType::bf16);
  CHECK(ar.bytes == Approx(8.0 * 8192 * 2));  // tokens x d_model x 2 bytes
  // The KV cache holds 1 byte per element (fp8), half of bf16's: 80 layers would be 80x this layer.
  const auto bf16 = decode(DataType::bf16, 2);
  CHECK(g.memory.kv_cache == Approx(bf16.memory.kv_cache / 2));
}
