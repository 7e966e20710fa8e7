#pragma once
// NCCL's protocols (LL, LL128, Simple) and the rule NCCL picks one by: its own cost model
// (src/graph/tuning.cc), a latency and a bandwidth per algorithm and protocol, the protocol with the
// smallest predicted time. The choice is NCCL's, from its constants and its own estimate of the ring's
// bandwidth, not from gpucast's fitted curve: a measured collective runs the protocol NCCL predicted
// fastest, whatever it then costs.
//
// LL: 8 data bytes and an 8-byte flag per 16-byte line, no separate synchronisation: the lowest latency
//     and a bandwidth capped per GPU (llMaxBw).
// LL128: 120 data bytes per 128-byte line; NVLink only.
// Simple: full lines, a fence and a flag per chunk: the highest latency and the full bandwidth.
#include <string_view>

#include "hardware/system_spec.h"
#include "workloads/op.h"

namespace gpucast::models {

enum class NcclProtocol { ll, ll128, simple };
[[nodiscard]] std::string_view nccl_protocol_name(NcclProtocol p);  // "LL", "LL128", "Simple"

enum class NcclAlgorithm { ring, tree };

// What NCCL's cost model needs to know about a call and the system.
struct NcclCallShape {
  wl::CollectiveKind kind = wl::CollectiveKind::all_reduce;
  int ranks = 2;
  int nodes = 1;     // fabric domains the group spans
  double bytes = 0;  // the buffer (nccl-tests' size: all-gather's output, reduce-scatter's input)
  int cc_major = 0;  // the GPU's compute capability (0: not an NVIDIA GPU)
  bool amd = false;  // RCCL, not NCCL: its own tables, not modelled here (Simple only)
  hw::FabricKind fabric = hw::FabricKind::nvswitch;
  double ring_bus_gbps = 0;  // NCCL's own estimate of the ring's bus bandwidth (nccl_ring_bus_gbps)
  int minor_version = 28;    // NCCL 2.x
};

// NCCL's estimate of the ring's bus bandwidth: channels x per-channel speed from its topology search,
// which rates an NVLink at 20 (sm80) or 20.6 (sm90) GB/s of its 25 (src/graph/topo.h); the 2x H200
// probe's tuning table shows 24 channels x 15 GB/s = 360 GB/s on a 450 GB/s NVLink fabric.
[[nodiscard]] double nccl_ring_bus_gbps(const hw::SystemSpec& system, double fabric_gbps);

// NCCL's latency (us) of one call of algorithm a, protocol p: base + steps x per-hop latency.
[[nodiscard]] double nccl_model_latency_us(const NcclCallShape& call, NcclAlgorithm a, NcclProtocol p);
// NCCL's per-hop latency (us) of a ring step inside the fabric for protocol p.
[[nodiscard]] double nccl_hop_latency_us(const NcclCallShape& call, NcclAlgorithm a, NcclProtocol p);
// NCCL's base latency (us) of algorithm a, protocol p.
[[nodiscard]] double nccl_base_latency_us(NcclAlgorithm a, NcclProtocol p);
// The LL protocol's cap on the bus bandwidth per GPU (GB/s): llMaxBw for the GPU generation
// (one node) or the node count (several).
[[nodiscard]] double nccl_ll_max_bus_gbps(const NcclCallShape& call);
// The bus bandwidth (GB/s) NCCL's model gives protocol p on the ring (0: protocol disabled).
[[nodiscard]] double nccl_model_bus_gbps(const NcclCallShape& call, NcclProtocol p);
// Whether NCCL enables LL128 by default: NVIDIA Volta, Ampere, Hopper (and newer) over NVLink.
[[nodiscard]] bool nccl_ll128_enabled(const NcclCallShape& call);
// NCCL's predicted time (us) of the ring with protocol p; infinity where p is disabled.
[[nodiscard]] double nccl_model_time_us(const NcclCallShape& call, NcclAlgorithm a, NcclProtocol p);
// The protocol NCCL runs the call with: the smallest of its predicted times (Simple for RCCL, all-to-all
// and send/recv, whose LL paths gpucast does not model).
[[nodiscard]] NcclProtocol nccl_choose_protocol(const NcclCallShape& call, NcclAlgorithm a);

}  // namespace gpucast::models
