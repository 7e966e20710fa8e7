#include "models/nccl_protocol.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "models/collective_model.h"

namespace gpucast::models {
using wl::CollectiveKind;

namespace {
// NCCL's cost-model constants, src/graph/tuning.cc (NCCL 2.18-2.28); every figure below that the 2x H200
// probe's tuning table prints (validation/runs/h200x2/probe/nccl.605.log.gz, NCCL 2.28.9: ring
// all-reduce LL 7.8 us / 141 GB/s, LL128 17.8 / 331.2, Simple 15.2 / 360; all-gather, reduce-scatter,
// broadcast 7.2 / 15.9 / 11.8 us; tree all-reduce 8.0 / 16.5 / 16.4 us) is reproduced by them.
// Base latency (us) per protocol {LL, LL128, Simple}: baseLat.
constexpr double kRingBaseLatencyUs[3] = {6.6, 14.0, 8.4};
constexpr double kTreeBaseLatencyUs[3] = {6.8, 14.0, 8.4};
// Per-hop latency (us) per protocol {LL, LL128, Simple}: hwLat, NVLink, PCIe and network rows.
constexpr double kRingNvlinkHopUs[3] = {0.6, 1.9, 3.4};
constexpr double kTreeNvlinkHopUs[3] = {0.6, 1.25, 4.0};
constexpr double kRingPcieHopUs[3] = {1.0, 2.5, 5.7};
constexpr double kTreePcieHopUs[3] = {1.0, 1.9, 4.0};
constexpr double kRingNetHopUs[3] = {2.7, 4.0, 14.0};
constexpr double kTreeNetHopUs[3] = {5.0, 8.5, 14.0};
// LL's per-hop latency grows by this factor across nodes (tuning.cc: intraLat *= 1.8).
constexpr double kLlMultiNodeHopFactor = 1.8;
// llMaxBw (GB/s), the cap on LL's bus bandwidth: one node by GPU generation (Volta 39.0, Ampere 87.7,
// Hopper 87.7 up to NCCL 2.20 (tuning.cc of that release) and 141.0 in 2.28 (the probe's 2.28.9 table
// gives LL exactly that); Blackwell and newer: Hopper's, an assumption), several nodes by node count
// (the Intel-host row: 2 nodes 39.0, more 20.4; the host's CPU is not described).
constexpr double kLlMaxBusGbpsVolta = 39.0;
constexpr double kLlMaxBusGbpsAmpere = 87.7;
constexpr double kLlMaxBusGbpsHopperOld = 87.7;
constexpr double kLlMaxBusGbpsHopper = 141.0;
constexpr double kLlMaxBusGbpsTwoNodes = 39.0;
constexpr double kLlMaxBusGbpsManyNodes = 20.4;
// LL's share of the ring's bus bandwidth before the cap. NCCL 2.28: half (an LL line carries 8 data bytes
// in 16; its table gives LL the cap, 141 of 360 GB/s, so the share is at least 0.39). Up to 2.20
// (tuning.cc): 1/4 for all-reduce and reduce (and across nodes), 1/3 for the others. Releases
// 2.21-2.27 are not known here: they take the older rule.
constexpr int kLlNewRuleMinorVersion = 28;
constexpr double kLlDataShare = 0.5;
constexpr double kLlReduceShareOld = 1.0 / 4.0;
constexpr double kLlOtherShareOld = 1.0 / 3.0;
// LL128 carries 120 data bytes in each 128-byte line (tuning.cc: 0.92; 0.7 with one GPU per node),
// capped per channel (perChMaxRingLL128Bws: Hopper 36.7 GB/s, Volta/Ampere 20.0).
constexpr double kLl128DataShare = 0.92;
constexpr double kLl128OneGpuPerNodeShare = 0.7;
constexpr double kLl128PerChannelGbpsHopper = 36.7;
constexpr double kLl128PerChannelGbpsOlder = 20.0;
// NCCL rates an NVLink at 20 (sm80) / 20.6 (sm90) GB/s of its 25 (src/graph/topo.h): its ring search
// found 24 channels x 15 GB/s = 360 GB/s on the 2x H200's 450 GB/s (probe log): 0.8 of the line rate.
constexpr double kNcclRingShareOfLineRate = 0.8;
// The tree's bandwidth in NCCL's model (tuning.cc: busBw x 0.92, and LL's x 1/3.8).
constexpr double kTreeBusShare = 0.92;
constexpr double kTreeLlShare = 1.0 / 3.8;
// NCCL's channel count for LL128's per-channel cap (tuning table of the probe: 24 channels).
constexpr int kNcclRingChannels = 24;

int index_of(NcclProtocol p) {
  return p == NcclProtocol::ll ? 0 : p == NcclProtocol::ll128 ? 1 : 2;
}

int inter_steps_of(const NcclCallShape& c) {
  if (c.nodes <= 1) return 0;
  switch (c.kind) {
    case CollectiveKind::all_reduce:
      return 2 * (c.nodes - 1);
    case CollectiveKind::broadcast:
      return c.nodes;
    default:
      return c.nodes - 1;
  }
}

bool one_hop_rooted(CollectiveKind k) {
  return k == CollectiveKind::broadcast;
}

// The bytes each GPU puts on the wire, as the collective model counts them (nccl-tests' bus factor).
double wire_bytes_of(const NcclCallShape& c) { return c.bytes * bus_factor(c.kind, c.ranks); }
}  // namespace

std::string_view nccl_protocol_name(NcclProtocol p) {
  switch (p) {
    case NcclProtocol::ll:
      return "LL";
    case NcclProtocol::ll128:
      return "LL128";
    default:
      return "Simple";
  }
}

double nccl_ring_bus_gbps(const hw::SystemSpec& /*system*/, double fabric_gbps) {
  return fabric_gbps * kNcclRingShareOfLineRate;
}

double nccl_base_latency_us(NcclAlgorithm a, NcclProtocol p) {
  return a == NcclAlgorithm::tree ? kTreeBaseLatencyUs[index_of(p)] : kRingBaseLatencyUs[index_of(p)];
}

double nccl_hop_latency_us(const NcclCallShape& c, NcclAlgorithm a, NcclProtocol p) {
  const int i = index_of(p);
  const bool pcie = c.fabric == hw::FabricKind::pcie;
  double hop = a == NcclAlgorithm::tree ? (pcie ? kTreePcieHopUs[i] : kTreeNvlinkHopUs[i])
                                        : (pcie ? kRingPcieHopUs[i] : kRingNvlinkHopUs[i]);
  if (c.nodes > 1 && p == NcclProtocol::ll) hop *= kLlMultiNodeHopFactor;
  return hop;
}

double nccl_model_latency_us(const NcclCallShape& c, NcclAlgorithm a, NcclProtocol p) {
  const int i = index_of(p);
  const double base = nccl_base_latency_us(a, p);
  const double intra = nccl_hop_latency_us(c, a, p);
  if (a == NcclAlgorithm::tree) {
    const int local = std::max(1, c.ranks / std::max(1, c.nodes));
    const double log_nodes = c.nodes > 1 ? std::floor(std::log2(double(c.nodes))) : 0.0;
    return base + 2 * ((local - 1) * intra + log_nodes * kTreeNetHopUs[i]);
  }
  if (one_hop_rooted(c.kind)) return base + (c.nodes > 1 ? kRingNetHopUs[i] : intra);
  const int steps = ring_steps(c.kind, c.ranks);
  const int inter = std::min(steps, inter_steps_of(c));
  return base + (steps - inter) * intra + inter * kRingNetHopUs[i];
}

double nccl_ll_max_bus_gbps(const NcclCallShape& c) {
  if (c.nodes > 2) return kLlMaxBusGbpsManyNodes;
  if (c.nodes == 2) return kLlMaxBusGbpsTwoNodes;
  if (c.cc_major >= 9)
    return c.minor_version >= kLlNewRuleMinorVersion ? kLlMaxBusGbpsHopper : kLlMaxBusGbpsHopperOld;
  if (c.cc_major >= 8) return kLlMaxBusGbpsAmpere;
  return kLlMaxBusGbpsVolta;
}

bool nccl_ll128_enabled(const NcclCallShape& c) {
  return !c.amd && c.cc_major >= 7 && c.fabric != hw::FabricKind::pcie;
}

double nccl_model_bus_gbps(const NcclCallShape& c, NcclProtocol p) {
  switch (p) {
    case NcclProtocol::ll: {
      const bool reduce_or_net = c.kind == CollectiveKind::all_reduce || c.nodes > 1;
      const double share = c.minor_version >= kLlNewRuleMinorVersion ? kLlDataShare
                           : reduce_or_net                           ? kLlReduceShareOld
                                                                     : kLlOtherShareOld;
      return std::min(nccl_ll_max_bus_gbps(c), c.ring_bus_gbps * share);
    }
    case NcclProtocol::ll128: {
      if (!nccl_ll128_enabled(c)) return 0;
      const double share = c.ranks <= c.nodes ? kLl128OneGpuPerNodeShare : kLl128DataShare;
      const double per_channel = c.cc_major >= 9 ? kLl128PerChannelGbpsHopper : kLl128PerChannelGbpsOlder;
      return std::min(c.ring_bus_gbps * share, kNcclRingChannels * per_channel);
    }
    default:
      return c.ring_bus_gbps;
  }
}

double nccl_model_time_us(const NcclCallShape& c, NcclAlgorithm a, NcclProtocol p) {
  double bus = nccl_model_bus_gbps(c, p);
  if (a == NcclAlgorithm::tree && bus > 0) {
    bus *= kTreeBusShare;
    if (p == NcclProtocol::ll)
      bus = std::min(c.ring_bus_gbps * kTreeBusShare * kTreeLlShare, nccl_ll_max_bus_gbps(c));
  }
  if (!(bus > 0)) return std::numeric_limits<double>::infinity();
  return nccl_model_latency_us(c, a, p) + wire_bytes_of(c) / (bus * 1e3);
}

NcclProtocol nccl_choose_protocol(const NcclCallShape& c, NcclAlgorithm a) {
  if (c.amd || c.cc_major <= 0 || c.ranks <= 1) return NcclProtocol::simple;
  if (c.kind == CollectiveKind::all_to_all || c.kind == CollectiveKind::send ||
      c.kind == CollectiveKind::recv)
    return NcclProtocol::simple;
  NcclProtocol best = NcclProtocol::simple;
  double best_t = nccl_model_time_us(c, a, best);
  for (const auto p : {NcclProtocol::ll, NcclProtocol::ll128}) {
    const double t = nccl_model_time_us(c, a, p);
    if (t < best_t) best_t = t, best = p;
  }
  return best;
}

}  // namespace gpucast::models
