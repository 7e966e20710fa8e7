#pragma once
// NCCL collectives on a multi-GPU system: which algorithm NCCL would pick (ring, tree across nodes,
// NVLS in the switch, point-to-point), a fixed cost per call (its floor: a long call overlaps it), a
// latency per algorithm step and a bandwidth term (the bytes each GPU puts on the wire over the bottleneck
// link, at a plateau efficiency that ramps with message size), reported with the nccl-tests algbw/busbw
// conventions.
#include <string>

#include "hardware/system_spec.h"
#include "workloads/op.h"

namespace gpucast::models {

// nccl-tests bus-bandwidth factor: busbw = algbw x factor (doc/PERFORMANCE.md).
// all_reduce 2(n-1)/n; all_gather, reduce_scatter, all_to_all (n-1)/n; broadcast, send, recv 1.
[[nodiscard]] double bus_factor(wl::CollectiveKind kind, int ranks);
// Steps of the ring algorithm (each waits for the previous one's chunk): all_reduce 2(n-1),
// all_gather / reduce_scatter / broadcast / all_to_all n-1, send/recv 1.
[[nodiscard]] int ring_steps(wl::CollectiveKind kind, int ranks);
// The size-dependent share of the plateau bandwidth: 1 / (1 + (ramp_bytes / bytes)^ramp_exponent).
// A collective uses its own ramp (nccl.<c>.ramp_bytes) where the system gives one.
[[nodiscard]] double ramp_efficiency(double bytes, double ramp_bytes, double exponent);
[[nodiscard]] double ramp_efficiency(double bytes, const hw::NcclSpec& nccl);
// E[max of n independent standard normal variables] (0 for n <= 1; 0.5642 for 2, 1.0294 for 4, 1.4236
// for 8): how far the slowest of n ranks lags, in units of the ranks' spread.
[[nodiscard]] double expected_max_standard_normal(int n);
// Name of the per-collective nccl key ("send_recv" for send and recv).
[[nodiscard]] std::string nccl_key(wl::CollectiveKind kind);

struct CollectiveEstimate {
  std::string algorithm;       // ring, tree, nvls, p2p, local
  std::string protocol;        // NCCL's protocol: LL, LL128, Simple (models/nccl_protocol.h)
  double time_us = 0;          // as nccl-tests reports it (launch included): max(fixed, gpu)
  double fixed_us = 0;         // the call's floor: the host's issue time of eager back-to-back calls
                               // (nccl base latency)
  double gpu_fixed_us = 0;     // GPU-side fixed cost of a call (nccl gpu latency)
  double gpu_us = 0;           // the GPU's time: gpu_fixed + latency + transfer
  double graph_us = 0;         // a call inside a CUDA graph: gpu_us where the system measured its GPU-side
                               // fixed cost apart from the host floor (nccl gpu latency), else time_us
  bool host_split = false;     // the system measured the GPU-side fixed cost apart from the host floor:
                               // `fixed_us` is then the host's issue time, `gpu_us` the GPU's
  double program_host_us = 0;  // host time of an eager call amid other work (nccl program host time;
                               // where not measured, fixed_us); back-to-back calls cost fixed_us
  double peer_skew = 0;        // how much later, relative to the host time since the ranks last
                               // synchronized, the slowest rank issues the call: spread x E[max of n]
  double latency_us = 0;       // the algorithm's steps (and network hops)
  double transfer_us = 0;      // bandwidth term; time = max(fixed, gpu_fixed + latency + transfer)
  double capped_transfer_us = 0;  // the part of transfer_us at a protocol's fixed cap (LL), which the
                                  // plateau efficiency does not scale
  double algbw_gbps = 0;       // bytes / time
  double busbw_gbps = 0;       // algbw x bus_factor
  double wire_bytes = 0;       // bytes each GPU sends (ring all-reduce: 2(n-1)/n of the buffer)
  double link_gbps = 0;        // the bottleneck bandwidth the bandwidth term used, before efficiencies
  double efficiency = 0;       // plateau x ramp efficiency applied to link_gbps
  int steps = 0;
  int nodes_spanned = 1;  // fabric domains (nodes, or racks for NVL72) the group crosses
  bool crosses_network = false;
  double sm_share = 0;    // fraction of the GPU's SMs the collective kernel holds
  double dram_bytes = 0;  // device-memory traffic per GPU (assumption: the buffer once plus the
                          // wire bytes read and written)
};

// Throws UnsupportedError for a group larger than the system, or one that crosses nodes of a
// system without a network.
[[nodiscard]] CollectiveEstimate estimate_collective(const wl::CollectiveOp& op,
                                                     const hw::SystemSpec& system);

}  // namespace gpucast::models
