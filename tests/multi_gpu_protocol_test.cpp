// NCCL's protocols (LL, LL128, Simple): NCCL's own cost model (its tuning table as the 2x H200 probe's
// NCCL 2.28.9 printed it), the protocol it picks (the smallest of its predicted times, at the switch
// points the probe's log shows), and what the chosen protocol costs in the collective model.
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>

#include "hardware/system_catalog.h"
#include "models/collective_model.h"
#include "models/nccl_protocol.h"
#include "support/system_builder.h"
#include "support/temp_dir.h"

using namespace gpucast;
using models::NcclAlgorithm;
using models::NcclProtocol;
using wl::CollectiveKind;

namespace {
models::NcclCallShape call(CollectiveKind kind, double bytes, int ranks, int nodes = 1) {
  models::NcclCallShape c;
  c.kind = kind;
  c.bytes = bytes;
  c.ranks = ranks;
  c.nodes = nodes;
  c.cc_major = 9;
  c.fabric = hw::FabricKind::nvswitch;
  c.ring_bus_gbps = 360;  // the probe's 24 channels x 15 GB/s
  return c;
}
std::string read_text(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}
NcclProtocol ring_choice(CollectiveKind kind, double bytes, int ranks = 2) {
  return models::nccl_choose_protocol(call(kind, bytes, ranks), NcclAlgorithm::ring);
}
}  // namespace

SCENARIO("NCCL's latencies and bandwidths reproduce the tuning table of NCCL 2.28.9 on 2x H200") {
  const auto ar = call(CollectiveKind::all_reduce, 1e6, 2);
  const auto ag = call(CollectiveKind::all_gather, 1e6, 2);
  const auto bc = call(CollectiveKind::broadcast, 1e6, 2);
  using models::nccl_model_latency_us;
  CHECK(nccl_model_latency_us(ar, NcclAlgorithm::ring, NcclProtocol::ll) == Approx(7.8));
  CHECK(nccl_model_latency_us(ar, NcclAlgorithm::ring, NcclProtocol::ll128) == Approx(17.8));
  CHECK(nccl_model_latency_us(ar, NcclAlgorithm::ring, NcclProtocol::simple) == Approx(15.2));
  CHECK(nccl_model_latency_us(ag, NcclAlgorithm::ring, NcclProtocol::ll) == Approx(7.2));
  CHECK(nccl_model_latency_us(ag, NcclAlgorithm::ring, NcclProtocol::ll128) == Approx(15.9));
  CHECK(nccl_model_latency_us(bc, NcclAlgorithm::ring, NcclProtocol::simple) == Approx(11.8));
  CHECK(nccl_model_latency_us(ar, NcclAlgorithm::tree, NcclProtocol::ll) == Approx(8.0));
  CHECK(nccl_model_latency_us(ar, NcclAlgorithm::tree, NcclProtocol::ll128) == Approx(16.5));
  CHECK(nccl_model_latency_us(ar, NcclAlgorithm::tree, NcclProtocol::simple) == Approx(16.4));
  CHECK(models::nccl_model_bus_gbps(ar, NcclProtocol::ll) == Approx(141.0));  // llMaxBw, Hopper
  CHECK(models::nccl_model_bus_gbps(ar, NcclProtocol::ll128) == Approx(331.2));
  CHECK(models::nccl_model_bus_gbps(ar, NcclProtocol::simple) == Approx(360.0));
}

SCENARIO("NCCL switches from LL to Simple where its predicted times cross, as the probe's log shows") {
  // all-reduce: 7.8 + S/141e3 = 15.2 + S/360e3 at S = 1,715,170 bytes
  CHECK(ring_choice(CollectiveKind::all_reduce, 1.714e6) == NcclProtocol::ll);
  CHECK(ring_choice(CollectiveKind::all_reduce, 1.716e6) == NcclProtocol::simple);
  // the probe's sizes: LL up to 1,482,752 bytes (all-reduce), 1,048,576 (broadcast), 2,097,152 of
  // all-gather output; Simple from the next size up; never LL128 on two GPUs
  CHECK(ring_choice(CollectiveKind::all_reduce, 1482752) == NcclProtocol::ll);
  CHECK(ring_choice(CollectiveKind::all_reduce, 2097152) == NcclProtocol::simple);
  CHECK(ring_choice(CollectiveKind::broadcast, 1048576) == NcclProtocol::ll);
  CHECK(ring_choice(CollectiveKind::broadcast, 1482752) == NcclProtocol::simple);
  CHECK(ring_choice(CollectiveKind::all_gather, 2097152) == NcclProtocol::ll);
  CHECK(ring_choice(CollectiveKind::all_gather, 2965504) == NcclProtocol::simple);
  CHECK(ring_choice(CollectiveKind::reduce_scatter, 2965504) == NcclProtocol::simple);
  for (double s : {8e3, 1e6, 4e6, 1e9})
    CHECK(ring_choice(CollectiveKind::all_reduce, s) != NcclProtocol::ll128);
}

SCENARIO("on eight NVLink GPUs LL128 takes the middle sizes; PCIe, RCCL, all-to-all keep their protocols") {
  // 14 steps: LL 6.6 + 14 x 0.6 = 15 us, LL128 14 + 14 x 1.9 = 40.6, Simple 8.4 + 14 x 3.4 = 56
  CHECK(ring_choice(CollectiveKind::all_reduce, 1 << 20, 8) == NcclProtocol::ll);
  CHECK(ring_choice(CollectiveKind::all_reduce, 8 << 20, 8) == NcclProtocol::ll128);
  CHECK(ring_choice(CollectiveKind::all_reduce, 1 << 30, 8) == NcclProtocol::simple);
  auto pcie = call(CollectiveKind::all_reduce, 8 << 20, 8);
  pcie.fabric = hw::FabricKind::pcie;
  CHECK_FALSE(models::nccl_ll128_enabled(pcie));
  CHECK(models::nccl_choose_protocol(pcie, NcclAlgorithm::ring) != NcclProtocol::ll128);
  auto amd = call(CollectiveKind::all_reduce, 8e3, 8);
  amd.amd = true;
  CHECK(models::nccl_choose_protocol(amd, NcclAlgorithm::ring) == NcclProtocol::simple);
  CHECK(ring_choice(CollectiveKind::all_to_all, 8e3, 8) == NcclProtocol::simple);
}

SCENARIO("the collective model runs the protocol NCCL chose: LL at its capped rate, Simple on the ramp") {
  auto sys = test::system_builder(2, 1, 450);  // plateau 0.8: 360 GB/s, the probe's NCCL estimate
  sys.gpu.compute_capability = "9.0";
  sys.nccl.protocols = true;
  sys.nccl.base_latency_us = 0;
  sys.nccl.gpu_latency_us = 2;
  // LL below the switch: 2 + NCCL's 7.8 us + S / 141 GB/s, whatever the plateau
  const auto ll =
      models::estimate_collective(test::collective_op(CollectiveKind::all_reduce, 1.41e6, 2), sys);
  CHECK(ll.protocol == "LL");
  CHECK(ll.gpu_us == Approx(2 + 7.8 + 10.0));
  CHECK(ll.capped_transfer_us == Approx(ll.transfer_us));
  // Simple above it: 2 + 15.2 us + S / (450 x 0.8) GB/s (ramp 1 in the builder)
  const auto simple =
      models::estimate_collective(test::collective_op(CollectiveKind::all_reduce, 3.6e6, 2), sys);
  CHECK(simple.protocol == "Simple");
  CHECK(simple.gpu_us == Approx(2 + 15.2 + 10.0));
  CHECK(simple.capped_transfer_us == 0);
  AND_THEN("with the protocols off (nccl.protocols = 0) one protocol runs at the system's step latency") {
    sys.nccl.protocols = false;
    const auto plain =
        models::estimate_collective(test::collective_op(CollectiveKind::all_reduce, 1.41e6, 2), sys);
    CHECK(plain.protocol == "Simple");
    CHECK(plain.gpu_us == Approx(2 + 2 * 1.0 + 1.41e6 / 360e3));
  }
}

SCENARIO("LL's bandwidth follows the NCCL release: 1/4 or 1/3 of the ring up to 2.20, 1/2 from 2.28") {
  auto ar = call(CollectiveKind::all_reduce, 1e6, 8);
  auto ag = call(CollectiveKind::all_gather, 1e6, 8);
  CHECK(models::nccl_model_bus_gbps(ar, NcclProtocol::ll) == Approx(141.0));  // min(141, 360 / 2)
  ar.minor_version = ag.minor_version = 20;
  CHECK(models::nccl_model_bus_gbps(ar, NcclProtocol::ll) == Approx(87.7));  // min(87.7, 360 / 4)
  CHECK(models::nccl_model_bus_gbps(ag, NcclProtocol::ll) == Approx(87.7));  // min(87.7, 360 / 3)
  // 8x A100 on NCCL 2.18 (ring 0.8 x 300 GB/s): all-reduce LL at a quarter of it, under Ampere's 87.7
  ar.cc_major = 8;
  ar.minor_version = 18;
  ar.ring_bus_gbps = 240;
  CHECK(models::nccl_model_bus_gbps(ar, NcclProtocol::ll) == Approx(60.0));
  CHECK(models::nccl_model_bus_gbps(ar, NcclProtocol::ll128) == Approx(0.92 * 240));
}

SCENARIO("a system sets its NCCL release and can turn the protocol tables off") {
  test::HardwareFixture fx;
  fx.add_gpu("g", test::GpuFileBuilder{}.text());
  fx.dir().write("hardware/catalog/systems/_defaults.toml",
                 read_text(test::source_dir() / "hardware/catalog/systems/_defaults.toml"));
  const std::string node =
      "name = \"node\"\ngpu = \"g\"\ngpus_per_node = 8\n[fabric]\nkind = \"nvswitch\"\nbandwidth_gbps = "
      "400.0\n";
  fx.dir().write("hardware/catalog/systems/node.toml", node + "[nccl]\nminor_version = 20\nprotocols = 0\n");
  fx.dir().write("hardware/catalog/systems/bad.toml", node + "[nccl]\nprotocols = 2\n");
  const auto gpus = fx.catalog();
  const hw::SystemCatalog systems(gpus);
  const auto s = systems.load("node");
  CHECK(s.nccl.minor_version == 20);
  CHECK_FALSE(s.nccl.protocols);
  CHECK(systems.load("node", hw::split_overrides({"nccl.protocols=1"})).nccl.protocols);
  try {
    (void)systems.load("bad");
    FAIL("expected an InputError");
  } catch (const InputError& e) {
    CHECK(e.key() == "nccl.protocols");
    CHECK(e.where().line == 8);
  }
}
