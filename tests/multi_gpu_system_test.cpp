// System descriptions: the catalog loads, `extends`, --set routing, the NxGPU shorthand, and bad
// systems fail with file:line:key.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "hardware/system_catalog.h"
#include "support/temp_dir.h"

using namespace gpucast;
using test::GpuFileBuilder;
using test::HardwareFixture;

namespace {
std::string read(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// A fixture with one GPU "g" (100 SMs), the real system defaults and `systems` written.
struct SystemFixture {
  HardwareFixture fx;
  SystemFixture() {
    fx.add_gpu("g", GpuFileBuilder{}.text());
    fx.dir().write("hardware/catalog/systems/_defaults.toml",
                   read(test::source_dir() / "hardware/catalog/systems/_defaults.toml"));
  }
  void add(const std::string& id, const std::string& text) const {
    fx.dir().write("hardware/catalog/systems/" + id + ".toml", text);
  }
  hw::Catalog gpus() const { return fx.catalog(); }
};

const char* kNode =
    "name = \"node\"\ngpu = \"g\"\ngpus_per_node = 8\n[fabric]\nkind = \"nvswitch\"\nbandwidth_gbps = "
    "400.0\n";

InputError load_error(const SystemFixture& f, const std::string& id, const hw::SplitOverrides& o = {}) {
  const auto gpus = f.gpus();
  const hw::SystemCatalog systems(gpus);
  try {
    (void)systems.load(id, o);
  } catch (const InputError& e) {
    return e;
  }
  FAIL("expected an InputError loading " << id);
  throw;
}
}  // namespace

SCENARIO("catalog systems load with their GPU (those whose GPU the catalog has)") {
  const hw::Catalog gpus(test::source_dir() / "hardware");
  const hw::SystemCatalog systems(gpus);
  for (const auto& id : systems.ids()) {
    const auto raw = read(systems.locate(id));
    const auto g = raw.find("gpu = \"");
    const std::string gpu = raw.substr(g + 7, raw.find('"', g + 7) - g - 7);
    if (!std::filesystem::exists(gpus.catalog_dir() / (gpu + ".toml")))
      continue;  // b200, gb200, mi300x: other issues
    INFO(id);
    const auto s = systems.load(id);
    CHECK(s.total_gpus() >= 8);
    CHECK(s.fabric.bandwidth_gbps > 0);
    CHECK(s.nccl.channels > 0);
  }
}

SCENARIO("the measured system profiles load as the machines they were fitted on") {
  const hw::Catalog gpus(test::source_dir() / "hardware");
  const hw::SystemCatalog systems(gpus);
  const auto h200x2 = systems.load("calibrated/systems/h200x2");
  CHECK(h200x2.total_gpus() == 2);
  const auto h100x4 = systems.load("calibrated/systems/h100x4");
  CHECK(h100x4.total_gpus() == 4);
  CHECK(h100x4.nccl.minor_version == 28);
  CHECK(h100x4.nccl.channels > 0);
  // Both carry how far apart their ranks' hosts ran (the data-parallel steps wait for the slowest).
  CHECK(h200x2.nccl.rank_host_spread > 0);
  CHECK(h100x4.nccl.rank_host_spread > h200x2.nccl.rank_host_spread);
  CHECK(h100x4.nccl.rank_host_spread < 0.5);
}

SCENARIO("a system file extends another and --set changes system keys and GPU keys") {
  SystemFixture f;
  f.add("node", kNode);
  f.add(
      "bigger",
      "name = \"bigger\"\nextends = \"node\"\nnodes = 2\n[network]\nnics_per_node = 8\nnic_gbits = 400.0\n");
  const auto gpus = f.gpus();
  const hw::SystemCatalog systems(gpus);
  const auto s = systems.load("bigger", hw::split_overrides({"fabric.bandwidth_gbps=900", "sm.count=50"}));
  CHECK(s.total_gpus() == 16);
  CHECK(s.fabric.bandwidth_gbps == Approx(900));
  CHECK(s.gpu.sm.count == 50);
  CHECK(s.network.node_gbps() == Approx(400));
  CHECK(s.nccl.bus_efficiency > 0);  // from _defaults.toml
}

SCENARIO("NxGPU shorthand: one node of N GPUs, at most what the catalog node holds") {
  SystemFixture f;
  f.add("node", kNode);
  const auto gpus = f.gpus();
  const hw::SystemCatalog systems(gpus);
  const auto s = systems.from_shorthand("4xg");
  CHECK(s.total_gpus() == 4);
  CHECK(s.fabric.domain_gpus == 4);
  CHECK_THROWS_WITH(systems.from_shorthand("16xg"), Catch::Contains("more GPUs than one node"));
  CHECK_THROWS_AS(systems.from_shorthand("x8g"), InputError);
}

SCENARIO("bad systems name the file, line and key") {
  SystemFixture f;
  f.add("typo", std::string(kNode) + "bandwith_gbps = 3.0\n");
  auto e = load_error(f, "typo");
  CHECK(e.key() == "fabric.bandwith_gbps");
  CHECK(e.where().line == 7);
  CHECK(std::string(e.what()).find("did you mean") != std::string::npos);

  f.add("kind",
        "name = \"k\"\ngpu = \"g\"\ngpus_per_node = 8\n[fabric]\nkind = \"nvlinc\"\nbandwidth_gbps = 1.0\n");
  e = load_error(f, "kind");
  CHECK(e.key() == "fabric.kind");
  CHECK(e.where().line == 5);

  f.add("nofabric", "name = \"n\"\ngpu = \"g\"\ngpus_per_node = 8\n");
  e = load_error(f, "nofabric");
  CHECK(e.key() == "fabric.kind");
  CHECK(std::string(e.what()).find("missing required key") != std::string::npos);

  f.add("nonet", std::string(kNode) + "\n[x]\n");
  f.add("nonet2",
        "name = \"n\"\ngpu = \"g\"\ngpus_per_node = 8\nnodes = 4\n[fabric]\nkind = "
        "\"nvswitch\"\nbandwidth_gbps = 1.0\n");
  e = load_error(f, "nonet2");
  CHECK(e.key() == "network.nics_per_node");
  CHECK(std::string(e.what()).find("no network between them") != std::string::npos);

  f.add("badgpu",
        "name = \"b\"\ngpu = \"nope\"\ngpus_per_node = 8\n[fabric]\nkind = \"pcie\"\nbandwidth_gbps = 1.0\n");
  e = load_error(f, "badgpu");
  CHECK(e.key() == "gpu");
  CHECK(e.where().line == 2);

  f.add("neg", std::string(kNode) + "[nccl]\nbus_efficiency = 1.5\n");
  e = load_error(f, "neg");
  CHECK(e.key() == "nccl.bus_efficiency");
  CHECK(e.where().line == 8);

  f.add("spread", std::string(kNode) + "[nccl]\nrank_host_spread = 1.5\n");
  e = load_error(f, "spread");
  CHECK(e.key() == "nccl.rank_host_spread");
  CHECK(e.where().line == 8);
  f.add("program", std::string(kNode) + "[nccl]\nprogram_host_us = -3.0\n");
  e = load_error(f, "program");
  CHECK(e.key() == "nccl.program_host_us");

  CHECK_THROWS_WITH(hw::split_overrides({"gpus_per_node=0"}), Catch::Contains("--set gpus_per_node=0"));
}
