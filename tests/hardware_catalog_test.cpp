// The shipped catalog: every entry loads, the required ids exist, figures match the datasheets the
// issue names, and every number a file states is covered by a source.
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>

#include "hardware/catalog.h"
#include "hardware/description_reader.h"
#include "hardware/key_schema.h"
#include "support/temp_dir.h"

using namespace gpucast;

namespace {
hw::Catalog real_catalog() { return hw::Catalog(test::source_dir() / "hardware"); }

bool covered(const std::string& path, const std::map<std::string, std::string>& sources) {
  std::string prefix = path;
  while (true) {
    if (sources.count(prefix)) return true;
    const auto dot = prefix.rfind('.');
    if (dot == std::string::npos) return false;
    prefix = prefix.substr(0, dot);
  }
}
}  // namespace

SCENARIO("the catalog holds the GPUs users ask about") {
  const auto catalog = real_catalog();
  const auto ids = catalog.ids();
  CHECK(ids.size() >= 20);
  for (const char* id : {"h100-sxm", "h100-pcie", "h200-sxm", "a100-sxm-80g", "a100-pcie-40g", "v100-sxm2-16g", "l40s",
                         "l4", "t4", "a10", "rtx-4090", "rtx-3090", "rtx-3080", "rtx-4070-ti", "rtx-a6000",
                         "rtx-6000-ada"}) {
    INFO(id);
    CHECK(std::find(ids.begin(), ids.end(), id) != ids.end());
  }
}

SCENARIO("every catalog entry resolves and passes validation") {
  const auto catalog = real_catalog();
  for (const auto& id : catalog.ids()) {
    INFO(id);
    const auto gpu = catalog.load(id);
    CHECK(gpu.sm.count > 0);
    CHECK(gpu.memory.bandwidth_gbps > 0);
    CHECK(gpu.efficiency.dram_bandwidth > 0);
    CHECK(gpu.efficiency.dram_bandwidth <= 1);
    CHECK(gpu.cache.l2_bandwidth_gbps > gpu.memory.bandwidth_gbps);
  }
}

SCENARIO("the H100 SXM entry carries its datasheet figures") {
  const auto gpu = real_catalog().load("h100-sxm");
  CHECK(gpu.sm.count == 132);
  CHECK(gpu.tensor_tflops(DataType::bf16) == Approx(989.4).margin(1));
  CHECK(gpu.memory.bandwidth_gbps == Approx(3350));
  CHECK(gpu.tensor_tflops(DataType::fp8) == Approx(2 * gpu.tensor_tflops(DataType::bf16)).epsilon(0.01));
}

SCENARIO("dense tensor rates, never sparse ones") {
  const auto catalog = real_catalog();
  GIVEN("GeForce cards, whose FP16 rate with FP32 accumulation is half the marketing figure") {
    CHECK(catalog.load("rtx-4090").tensor_tflops(DataType::bf16) == Approx(165.2));
    CHECK(catalog.load("rtx-3090").tensor_tflops(DataType::fp16) == Approx(71));
  }
  GIVEN("data-center cards whose datasheets print sparse figures") {
    CHECK(catalog.load("l40s").tensor_tflops(DataType::fp8) == Approx(733));
    CHECK(catalog.load("l4").tensor_tflops(DataType::fp8) == Approx(242.5));
  }
}

SCENARIO("a data type the GPU lacks is absent, and asking for it is an error") {
  const auto catalog = real_catalog();
  const auto a100 = catalog.load("a100-sxm-80g");
  CHECK_FALSE(a100.has_tensor(DataType::fp8));
  CHECK_THROWS_AS(a100.tensor_tflops(DataType::fp8), UnsupportedError);
  const auto v100 = catalog.load("v100-sxm2-16g");
  CHECK_THROWS_WITH(v100.tensor_tflops(DataType::bf16), Catch::Contains("no bf16 tensor-core rate"));
}

SCENARIO("every number a catalog file states names its source") {
  const auto catalog = real_catalog();
  for (const auto& id : catalog.ids()) {
    const auto raw = hw::read_gpu_file(catalog.catalog_dir() / (id + ".toml"));
    const auto resolved = catalog.load(id);
    for (const auto& [path, value] : raw.values) {
      if (!scalar_as_number(value.value)) continue;
      INFO(id << ": " << path);
      CHECK(covered(path, resolved.sources));
    }
  }
  for (const auto& arch : catalog.architectures()) {
    const auto raw = hw::read_architecture_file(catalog.architectures_dir() / (arch + ".toml"));
    std::map<std::string, std::string> sources;
    for (const auto& [k, v] : raw.sources) sources[k] = std::get<std::string>(v.value);
    for (const auto& [path, value] : raw.values) {
      if (!scalar_as_number(value.value)) continue;
      INFO(arch << ": " << path);
      CHECK(covered(path, sources));
    }
  }
}

SCENARIO("extends inherits from a catalog entry and overrides what it states") {
  const auto catalog = real_catalog();
  const auto h100 = catalog.load("h100-sxm");
  const auto h200 = catalog.load("h200-sxm");
  THEN("the chip is inherited") {
    CHECK(h200.sm.count == h100.sm.count);
    CHECK(h200.tensor_tflops(DataType::bf16) == h100.tensor_tflops(DataType::bf16));
  }
  THEN("memory and cloud offers are its own") {
    CHECK(h200.memory.bandwidth_gbps == Approx(4800));
    CHECK(h200.memory.capacity_gb == Approx(141));
    REQUIRE_FALSE(h200.cloud.empty());
    CHECK(h200.cloud.front().instance == "p5en.48xlarge");
  }
  THEN("an inherited value remembers the file it came from") {
    CHECK(h200.values.at("sm.count").where.file.find("h100-sxm.toml") != std::string::npos);
    CHECK(h200.values.at("memory.bandwidth_gbps").where.file.find("h200-sxm.toml") != std::string::npos);
  }
}

SCENARIO("architecture defaults fill efficiency and derived rates") {
  const auto gpu = real_catalog().load("rtx-4090");
  CHECK(gpu.efficiency.tensor.at(DataType::bf16) > 0);
  CHECK(gpu.values.at("efficiency.dram_bandwidth").where.file.find("ada.toml") != std::string::npos);
  // sfu_tops = 16 ops/clk/SM x 128 SMs x 2.52 GHz
  CHECK(gpu.compute.sfu_tops == Approx(16 * 128 * 2.52e-3).epsilon(1e-6));
}

SCENARIO("the format documentation covers every key") {
  std::ifstream in(test::source_dir() / "docs" / "hardware-format.md");
  REQUIRE(in);
  std::stringstream text;
  text << in.rdbuf();
  for (const auto& key : hw::gpu_keys()) {
    INFO(key.path);
    CHECK(text.str().find("`" + std::string(key.path) + "`") != std::string::npos);
  }
  for (const auto& key : hw::cloud_keys()) {
    INFO(key.path);
    CHECK(text.str().find("`" + std::string(key.path) + "`") != std::string::npos);
  }
}
