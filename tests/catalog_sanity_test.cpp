// Sanity rules every shipped catalog entry obeys: dense (never sparse) tensor rates, bandwidth that
// matches bus width x data rate, dated prices, and source kinds for every figure.
#include <catch2/catch.hpp>

#include <map>

#include "hardware/catalog.h"
#include "hardware/source_kind.h"
#include "models/cost/price_age.h"
#include "support/temp_dir.h"

using namespace gpucast;

namespace {
hw::Catalog real_catalog() {
  return hw::Catalog(test::source_dir() / "hardware");
}

// Dense 16-bit tensor FLOP per SM per clock at the boost clock: a generation at most doubles it,
// so a sparse figure (twice the dense one) stands out.
double per_sm_clock(const hw::GpuSpec& g) {
  const DataType t = g.has_tensor(DataType::bf16) ? DataType::bf16 : DataType::fp16;
  return g.tensor_tflops(t) * 1e12 / (g.sm.count * g.sm.boost_clock_mhz * 1e6);
}

// The generation each architecture follows, within its product line.
const std::map<std::string, std::string> kPrevious{
    {"turing", "volta"},  {"ampere", "volta"},        {"ada", "ampere"},  {"hopper", "ampere"},
    {"blackwell", "ada"}, {"blackwell-dc", "hopper"}, {"cdna4", "cdna3"},
};
}  // namespace

SCENARIO("a generation's dense tensor rate per SM and clock is at most twice the previous one's") {
  const auto catalog = real_catalog();
  std::map<std::string, double> best;  // architecture -> highest per-SM-clock rate
  std::vector<hw::GpuSpec> gpus;
  for (const auto& id : catalog.ids()) {
    auto g = catalog.load(id);
    if (!g.has_tensor(DataType::bf16) && !g.has_tensor(DataType::fp16)) continue;
    best[g.architecture] = std::max(best[g.architecture], per_sm_clock(g));
    gpus.push_back(std::move(g));
  }
  for (const auto& g : gpus) {
    auto prev = kPrevious.find(g.architecture);
    if (prev == kPrevious.end() || !best.count(prev->second)) continue;
    INFO(g.id << " (" << g.architecture << ") against " << prev->second);
    // 10% for boost clocks above the clock the vendor computed its peak at.
    CHECK(per_sm_clock(g) <= 2.2 * best.at(prev->second));
  }
}

SCENARIO("a catalog bandwidth is bus width times data rate within 5% where both are given") {
  const auto catalog = real_catalog();
  int checked = 0;
  for (const auto& id : catalog.ids()) {
    const auto g = catalog.load(id);
    auto rate = g.values.find("memory.data_rate_gbps");
    if (rate == g.values.end()) continue;
    INFO(id);
    const double expected = g.memory.bus_width_bits / 8.0 * *scalar_as_number(rate->second.value);
    CHECK(g.memory.bandwidth_gbps == Approx(expected).epsilon(0.05));
    ++checked;
  }
  CHECK(checked >= 12);
}

SCENARIO("every catalog price is dated and every cloud offer names its source") {
  const auto catalog = real_catalog();
  for (const auto& id : catalog.ids()) {
    const auto g = catalog.load(id);
    INFO(id);
    CHECK(models::cost::parse_price_date(g.price.date).has_value());
    CHECK_FALSE(g.price.kind.empty());
    for (const auto& offer : g.cloud) {
      INFO(offer.provider << " " << offer.instance);
      CHECK(models::cost::parse_price_date(offer.date).has_value());
      CHECK_FALSE(offer.source.empty());
    }
  }
}

SCENARIO("the GPUs people buy in 2026 are in the catalog with their vendor and architecture") {
  const auto catalog = real_catalog();
  const std::map<std::string, std::pair<std::string, std::string>> expected{
      {"a10g", {"NVIDIA", "ampere"}},
      {"h100-nvl", {"NVIDIA", "hopper"}},
      {"b200", {"NVIDIA", "blackwell-dc"}},
      {"b300", {"NVIDIA", "blackwell-dc"}},
      {"gb200", {"NVIDIA", "blackwell-dc"}},
      {"gh200", {"NVIDIA", "hopper"}},
      {"h20", {"NVIDIA", "hopper"}},
      {"rtx-5080", {"NVIDIA", "blackwell"}},
      {"rtx-5070-ti", {"NVIDIA", "blackwell"}},
      {"rtx-pro-6000", {"NVIDIA", "blackwell"}},
      {"l20", {"NVIDIA", "ada"}},
      {"mi300x", {"AMD", "cdna3"}},
      {"mi325x", {"AMD", "cdna3"}},
      {"mi355x", {"AMD", "cdna4"}},
      {"rtx-5090", {"NVIDIA", "blackwell"}},
  };
  for (const auto& [id, va] : expected) {
    INFO(id);
    const auto g = catalog.load(id);
    CHECK(g.vendor == va.first);
    CHECK(g.architecture == va.second);
  }
  CHECK(catalog.load("mi300x").sm.warp_size == 64);
  CHECK(catalog.load("b200").sm.warp_size == 32);
  CHECK(catalog.load("gh200").host_link == "NVLink-C2C");
}

SCENARIO("hw show can tell a datasheet figure from a measurement and an assumption") {
  CHECK(hw::classify_source("datasheet: NVIDIA HGX B200 datasheet") == hw::SourceKind::datasheet);
  CHECK(hw::classify_source("assumed like Hopper") == hw::SourceKind::assumption);
  CHECK(hw::classify_source("gpucast calibrate on an H100 SXM") == hw::SourceKind::measurement);
  CHECK(hw::classify_source("measured: Azure AI-benchmarking-guide, assumed elsewhere") ==
        hw::SourceKind::measurement);
  const auto b200 = real_catalog().load("b200");
  CHECK(hw::source_of(b200, "memory.bandwidth_gbps").kind == hw::SourceKind::datasheet);
  CHECK(hw::source_of(b200, "efficiency.tensor.fp4").kind == hw::SourceKind::measurement);
  CHECK(hw::source_of(b200, "efficiency.tensor.bf16").kind == hw::SourceKind::assumption);
  CHECK(hw::source_of(b200, "cache.l2_bandwidth_gbps").kind == hw::SourceKind::derived);
}
