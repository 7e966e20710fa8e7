// Model generators: sizes and work against published figures; memory against simple arithmetic.
#include <catch2/catch.hpp>

#include "hardware/catalog.h"
#include "support/temp_dir.h"
#include "workloads/generate.h"
#include "workloads/memory_advice.h"

using namespace gpucast;

namespace {
wl::GenerateOptions options(wl::Mode mode, long batch, long seq) {
  wl::GenerateOptions o;
  o.mode = mode;
  o.batch = batch;
  o.seq = seq;
  return o;
}
double kernel_flops(const wl::Workload& w) {
  double f = 0;
  for (const auto& k : w.kernels()) f += wl::op_flops(k.op);
  return f;
}
}  // namespace

SCENARIO("presets have their published parameter counts") {
  const std::vector<std::pair<std::string, double>> published{
      {"gpt2", 124e6},          {"gpt3-175b", 175e9},  {"llama-2-7b", 6.74e9}, {"llama-2-13b", 13.0e9},
      {"llama-2-70b", 69.0e9},  {"llama-3-8b", 8.03e9}, {"llama-3-70b", 70.6e9}, {"mistral-7b", 7.24e9},
      {"bert-base", 110e6},     {"bert-large", 335e6}, {"resnet50", 25.6e6},   {"sd15-unet", 860e6}};
  for (const auto& [name, count] : published) {
    INFO(name);
    const auto m = wl::load_model(name);
    const auto* t = std::get_if<wl::TransformerConfig>(&m);
    const auto mode = t && t->decoder ? wl::Mode::prefill : wl::Mode::inference;
    CHECK(wl::generate(m, options(mode, 1, 128)).parameters == Approx(count).epsilon(0.02));
  }
}

SCENARIO("a training step does about 6 x parameters x tokens plus attention") {
  const auto m = wl::load_model("llama-2-7b");
  const auto g = wl::generate(m, options(wl::Mode::train, 4, 2048));
  const double tokens = 4 * 2048;
  const auto& c = std::get<wl::TransformerConfig>(m);
  const double attention = 3 * 4.0 * c.layers * 2048 * c.d_model * 0.5 * tokens;  // causal, fwd + bwd
  const double non_embedding = g.parameters - 2.0 * c.vocab * c.d_model + double(c.vocab) * c.d_model;
  CHECK(g.useful_flops == Approx(6 * non_embedding * tokens + attention).epsilon(0.01));
  THEN("the generated kernels do that work") { CHECK(kernel_flops(g.workload) == Approx(g.useful_flops).epsilon(0.03)); }
}

SCENARIO("decode reads the KV cache and emits one step") {
  auto o = options(wl::Mode::decode, 8, 1);
  o.context = 4096;
  const auto g = wl::generate(wl::load_model("llama-3-8b"), o);
  // 2 (K and V) x 32 layers x 8 KV heads x 128 x 4097 tokens x 8 sequences x 2 bytes
  CHECK(g.memory.kv_cache == Approx(2.0 * 32 * 8 * 128 * 4097 * 8 * 2).epsilon(1e-9));
  CHECK(g.items == 8);
}

SCENARIO("Llama-2-7B in bf16 needs about 13.5 GB of weights") {
  const auto g = wl::generate(wl::load_model("llama-2-7b"), options(wl::Mode::prefill, 1, 128));
  CHECK(g.memory.weights / 1e9 == Approx(13.5).epsilon(0.01));
}

SCENARIO("a 70B model in bf16 does not fit on a 24 GB GPU, and the advice says what would") {
  const auto m = wl::load_model("llama-2-70b");
  const auto o = options(wl::Mode::prefill, 4, 512);
  const auto g = wl::generate(m, o);
  const auto gpu = hw::Catalog(test::source_dir() / "hardware").load("rtx-4090");
  const auto fit = wl::check_fit(m, o, g.memory, gpu.memory.capacity_gb * 1e9);
  CHECK_FALSE(fit.fits);
  CHECK(fit.peak_bytes > 130e9);
  REQUIRE_FALSE(fit.advice.empty());
  bool mentions_gpus = false;
  for (const auto& a : fit.advice) mentions_gpus = mentions_gpus || a.find("GPUs") != std::string::npos;
  CHECK(mentions_gpus);
}

SCENARIO("training memory counts gradients and AdamW state; recomputation saves activations") {
  const auto m = wl::load_model("llama-2-7b");
  auto o = options(wl::Mode::train, 8, 2048);
  const auto full = wl::generate(m, o);
  CHECK(full.memory.gradients == Approx(full.memory.weights));
  CHECK(full.memory.optimizer == Approx(full.parameters * 12));  // fp32 m, v and master weights
  o.recompute = true;
  const auto recomputed = wl::generate(m, o);
  CHECK(recomputed.memory.activations < 0.25 * full.memory.activations);
  CHECK(recomputed.workload.size() > full.workload.size());  // the forward runs again in backward
}

SCENARIO("fusing pointwise ops launches fewer kernels") {
  const auto m = wl::load_model("llama-3-8b");
  auto o = options(wl::Mode::prefill, 1, 512);
  const auto eager = wl::generate(m, o);
  o.fused_elementwise = true;
  const auto fused = wl::generate(m, o);
  CHECK(fused.workload.size() < eager.workload.size());
}

SCENARIO("bad generator settings are refused") {
  CHECK_THROWS_WITH(wl::generate(wl::load_model("bert-base"), options(wl::Mode::decode, 1, 1)),
                    Catch::Contains("encoder"));
  CHECK_THROWS_WITH(wl::generate(wl::load_model("resnet50"), options(wl::Mode::prefill, 1, 1)),
                    Catch::Contains("not a language model"));
  CHECK_THROWS_WITH(wl::load_model("lama-2-7b"), Catch::Contains("did you mean 'llama-2-7b'"));
}

SCENARIO("a model file describes any transformer, with located errors") {
  test::TempDir dir;
  const auto good = dir.write("tiny.toml", "[model]\ntype = \"llama\"\nlayers = 2\nd_model = 256\nheads = 4\n"
                                           "kv_heads = 2\nffn = 512\nvocab = 1000\n");
  const auto m = wl::load_model(good.string());
  CHECK(std::get<wl::TransformerConfig>(m).kv_heads == 2);
  const auto bad = dir.write("bad.toml", "[model]\ntype = \"llama\"\nlayers = 2\nd_model = 256\nheds = 4\n");
  try {
    (void)wl::load_model(bad.string());
    FAIL("expected an error");
  } catch (const InputError& e) {
    CHECK(e.key() == "model.heds");
    CHECK(e.where().line == 5);
    CHECK(std::string(e.what()).find("did you mean 'heads'") != std::string::npos);
  }
}
