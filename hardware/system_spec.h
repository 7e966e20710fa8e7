#pragma once
// A multi-GPU system: nodes of GPUs joined by an intra-node fabric (NVSwitch, point-to-point links
// or PCIe) and NICs between nodes, plus the NCCL-level parameters the collective model uses.
// Loaded from hardware/catalog/systems/*.toml (see system_catalog.h).
#include <map>
#include <optional>
#include <string>

#include "common/toml_source.h"
#include "hardware/gpu_spec.h"

namespace gpucast::hw {

enum class FabricKind {
  nvswitch,  // every GPU reaches every other at its full per-GPU bandwidth (NVSwitch, NVL72 spine)
  mesh,      // point-to-point links, the per-GPU bandwidth split over the peers (xGMI, NVLink bridges)
  pcie,      // through PCIe switches and the host: no GPU-GPU links
};
[[nodiscard]] std::string_view fabric_kind_name(FabricKind kind);

struct FabricSpec {
  FabricKind kind = FabricKind::nvswitch;
  std::string generation;     // "nvlink4", "pcie4", "infinity-fabric"
  double bandwidth_gbps = 0;  // per GPU, per direction, all links together (GB/s)
  int domain_gpus = 0;        // GPUs joined by this fabric (a node, or a rack for NVL72)
  bool nvls = false;          // NVLink SHARP (in-switch reduction) available and enabled
};

struct NetworkSpec {
  std::string kind;  // "infiniband-ndr", "roce", "none"
  int nics_per_node = 0;
  double nic_gbits = 0;   // per NIC, per direction, Gb/s as marketed (400 for NDR)
  double latency_us = 0;  // one inter-node hop of a collective step
  double efficiency = 1;  // share of the line rate a collective sustains
  // Line rate of all of a node's NICs together, GB/s per direction.
  [[nodiscard]] double node_gbps() const { return nics_per_node * nic_gbits / 8; }
};

struct HostLinkSpec {
  std::string kind;  // "pcie5", "nvlink-c2c"
  double bandwidth_gbps = 0;
};

// NCCL-level parameters (calibrated per system; defaults in catalog/systems/_defaults.toml).
struct NcclSpec {
  double base_latency_us = 0;  // fixed cost of one collective call: launch, setup, final sync
  double step_latency_us = 0;  // per algorithm step inside the fabric
  double bus_efficiency = 1;   // plateau bus bandwidth over the fabric's line rate (ring)
  double nvls_efficiency = 1;  // NVLS all-reduce: algorithm bandwidth over the line rate
  double ramp_bytes = 0;       // message size where the efficiency is half its plateau
  double ramp_exponent = 1;    // how fast it rises: e(S) = 1 / (1 + (ramp_bytes / S)^ramp_exponent)
  int channels = 0;            // SMs (one block per channel) the collective kernels hold
  // GPU-side fixed cost of one call (kernel start, first handshake, final flag): what a call costs
  // inside a CUDA graph at zero bytes, where the host's issue time (base_latency_us) is out of the loop.
  // Negative: not measured (a system fitted on eager times alone); then the call's GPU time has no
  // fixed part and a CUDA graph keeps the eager floor, which cannot be split into host and GPU.
  double gpu_latency_us = -1;
  // Host time of one eager collective call issued amid other work (a TP layer's all-reduce between its
  // GEMMs), the cost it leaves on the host's next op included. Back-to-back calls run hot, at
  // base_latency_us; a call after other work runs cold. Negative: not measured (base_latency_us).
  // Used only where the GPU-side fixed cost is measured apart (gpu_latency_us).
  double program_host_us = -1;
  // Relative spread (standard deviation over mean) of the ranks' host speeds: each rank's process
  // issues the same program at its own pace, and an eager collective starts on the GPUs only when the
  // slowest rank has issued it. 0: ranks in lockstep.
  double rank_host_spread = 0;
  // NCCL's protocols (LL, LL128, Simple) chosen by NCCL's own cost model, each at its latency and
  // bandwidth (models/nccl_protocol.h). false: one protocol at step_latency_us per step (as RCCL and
  // GPUs without a CUDA compute capability always are).
  bool protocols = true;
  // The NCCL 2.x release (x) the system runs: NCCL's LL bandwidth rule changed between the 2.18-2.20 of
  // the published 8-GPU curves and the 2.28 of the 2x H200 probe (models/nccl_protocol.h).
  int minor_version = 28;
  // Per-collective overrides (all_reduce, all_gather, reduce_scatter, all_to_all, broadcast, send_recv).
  std::map<std::string, double> bus_efficiency_for;
  std::map<std::string, double> base_latency_us_for;
  std::map<std::string, double> gpu_latency_us_for;
  std::map<std::string, double> ramp_bytes_for;
  [[nodiscard]] double bus_efficiency_of(const std::string& collective) const;
  [[nodiscard]] double base_latency_of(const std::string& collective) const;
  [[nodiscard]] double gpu_latency_of(const std::string& collective) const;  // < 0: not measured
  [[nodiscard]] double ramp_bytes_of(const std::string& collective) const;
};

struct SystemSpec {
  std::string id;
  std::string origin;
  std::string name;
  GpuSpec gpu;
  int nodes = 1;
  int gpus_per_node = 1;
  FabricSpec fabric;
  NetworkSpec network;
  HostLinkSpec host_link;
  NcclSpec nccl;
  std::optional<double> price_usd;  // whole system, when published
  FlatTable values;
  std::map<std::string, std::string> sources;

  [[nodiscard]] int total_gpus() const { return nodes * gpus_per_node; }
};

}  // namespace gpucast::hw
