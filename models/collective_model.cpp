#include "models/collective_model.h"

#include <algorithm>
#include <cmath>

#include "common/errors.h"
#include "models/nccl_protocol.h"

namespace gpucast::models {
using wl::CollectiveKind;

namespace {
// NVLS all-reduce: two steps (push to the switch, which reduces, then multicast back), and NCCL
// runs it on half the channels of its ring kernels (NCCL's NVLS channel count; assumption).
constexpr int kNvlsSteps = 2;
constexpr double kNvlsChannelShare = 0.5;
// LL128's rate against Simple's at the same size: 120 data bytes of each 128-byte line (NCCL
// tuning.cc's 0.92), under NCCL's per-channel cap.
constexpr double kLl128OfSimple = 0.92;

// One algorithm with one protocol: its latency, its transfer (the part not scaled by the plateau
// efficiency: LL's capped rate) and the rate it moved the wire bytes at.
struct PathCost {
  NcclProtocol protocol = NcclProtocol::simple;
  double latency_us = 0;
  double transfer_us = 0;
  double capped_transfer_us = 0;
  double rate_gbps = 0;
};
}  // namespace

double bus_factor(CollectiveKind kind, int ranks) {
  const double n = ranks;
  if (ranks <= 1) return 0;
  switch (kind) {
    case CollectiveKind::all_reduce:
      return 2 * (n - 1) / n;
    case CollectiveKind::all_gather:
    case CollectiveKind::reduce_scatter:
    case CollectiveKind::all_to_all:
      return (n - 1) / n;
    default:
      return 1;
  }
}

int ring_steps(CollectiveKind kind, int ranks) {
  if (ranks <= 1) return 0;
  switch (kind) {
    case CollectiveKind::all_reduce:
      return 2 * (ranks - 1);
    case CollectiveKind::send:
    case CollectiveKind::recv:
      return 1;
    default:
      return ranks - 1;
  }
}

double ramp_efficiency(double bytes, double ramp_bytes, double exponent) {
  if (bytes <= 0) return 0;
  return 1.0 / (1.0 + std::pow(ramp_bytes / bytes, exponent));
}

double ramp_efficiency(double bytes, const hw::NcclSpec& nccl) {
  return ramp_efficiency(bytes, nccl.ramp_bytes, nccl.ramp_exponent);
}

double expected_max_standard_normal(int n) {
  if (n <= 1) return 0;
  // E[max] = integral of x n phi(x) Phi(x)^(n-1) dx, by the midpoint rule: 4,000 steps over [-10, 10]
  // (a numerical method, not a model figure).
  const double lo = -10, hi = 10;
  const int steps = 4000;
  const double h = (hi - lo) / steps;
  const double inv_sqrt_2pi = 1 / std::sqrt(2 * std::acos(-1.0));
  double sum = 0;
  for (int i = 0; i < steps; ++i) {
    const double x = lo + (i + 0.5) * h;
    const double pdf = std::exp(-0.5 * x * x) * inv_sqrt_2pi;
    const double cdf = 0.5 * std::erfc(-x / std::sqrt(2.0));
    sum += x * n * pdf * std::pow(cdf, n - 1);
  }
  return sum * h;
}

std::string nccl_key(CollectiveKind kind) {
  if (kind == CollectiveKind::send || kind == CollectiveKind::recv) return "send_recv";
  return std::string(wl::collective_name(kind));
}

CollectiveEstimate estimate_collective(const wl::CollectiveOp& op, const hw::SystemSpec& sys) {
  CollectiveEstimate e;
  const int n = op.ranks;
  const int stride = std::max(1, op.stride);
  const long span = long(n - 1) * stride + 1;  // GPUs from the group's first to its last
  if (span > sys.total_gpus())
    throw UnsupportedError(std::string(wl::collective_name(op.kind)) + " over " + std::to_string(n) +
                           " ranks" + (stride > 1 ? " at stride " + std::to_string(stride) : std::string()) +
                           ": more GPUs than the system " + sys.id + " has (" +
                           std::to_string(sys.total_gpus()) + ")");
  e.sm_share = std::min(1.0, double(sys.nccl.channels) / sys.gpu.sm.count);
  if (n <= 1) {
    e.algorithm = "local";
    return e;
  }
  const int domain = std::max(1, sys.fabric.domain_gpus);
  // Ranks sit on GPUs r, r + stride, ...: `local` of them share one fabric domain.
  const int local = std::max(1, std::min(n, stride >= domain ? 1 : (domain + stride - 1) / stride));
  e.nodes_spanned = (n + local - 1) / local;
  e.crosses_network = e.nodes_spanned > 1;
  if (e.crosses_network && sys.network.node_gbps() <= 0)
    throw UnsupportedError(std::string(wl::collective_name(op.kind)) + " over " + std::to_string(n) +
                           " ranks crosses the fabric of " + std::to_string(domain) + " GPUs, but system " +
                           sys.id + " has no network between nodes");

  const std::string key = nccl_key(op.kind);
  const double base = sys.nccl.base_latency_of(key);
  const bool gpu_split = sys.nccl.gpu_latency_of(key) >= 0;  // host floor and GPU time measured apart
  const double gpu_fixed = std::max(0.0, sys.nccl.gpu_latency_of(key));
  const double step = sys.nccl.step_latency_us;
  const double ramp = ramp_efficiency(op.bytes, sys.nccl.ramp_bytes_of(key), sys.nccl.ramp_exponent);
  const double plateau = sys.nccl.bus_efficiency_of(key);
  // The fabric rate one GPU has toward the group: a mesh gives each peer its own share of the links.
  double fabric = sys.fabric.bandwidth_gbps;
  if (sys.fabric.kind == hw::FabricKind::mesh && domain > 1)
    fabric *= double(std::max(1, local - 1)) / double(domain - 1);
  // The network: a ring crossing domains sends its whole flow through the NICs of each domain's
  // share of nodes (every NCCL channel on its own NIC), so the ring's bus rate is bounded by them.
  const double net_share = std::min(1.0, double(local) / sys.gpus_per_node);
  const double network = sys.network.node_gbps() * sys.network.efficiency * net_share;
  const double bf = bus_factor(op.kind, n);
  e.wire_bytes = bf * op.bytes;
  auto transfer = [&](double bytes, double gbps) { return gbps > 0 ? bytes / (gbps * 1e3) : 0.0; };

  if (op.kind == CollectiveKind::all_to_all) {
    // Every pair at once: intra-domain parts over the fabric, the rest over the NICs.
    const double intra = op.bytes * double(local - 1) / n;
    const double inter = op.bytes * double(n - local) / n;
    const double net_per_gpu = sys.network.node_gbps() * sys.network.efficiency / sys.gpus_per_node;
    e.algorithm = "p2p";
    e.protocol = "Simple";
    e.steps = n - 1;
    e.latency_us = step * (n - 1) + (e.crosses_network ? sys.network.latency_us : 0);
    const double t_intra = transfer(intra, fabric * plateau * ramp);
    const double t_inter = transfer(inter, net_per_gpu * ramp);
    e.transfer_us = std::max(t_intra, t_inter);
    e.link_gbps = t_inter > t_intra ? net_per_gpu : fabric;
    e.efficiency = t_inter > t_intra ? ramp : plateau * ramp;
  } else {
    // Ring: bottleneck of the fabric and (across domains) the network.
    const int steps = ring_steps(op.kind, n);
    const double ring_rate = e.crosses_network ? std::min(fabric * plateau, network) : fabric * plateau;
    // NCCL's protocol (LL, LL128, Simple), chosen by its own cost model (models/nccl_protocol.h); RCCL
    // and GPUs without a CUDA compute capability keep Simple at the system's step latency.
    NcclCallShape call;
    call.kind = op.kind;
    call.ranks = n;
    call.nodes = e.nodes_spanned;
    call.bytes = op.bytes;
    call.cc_major = sys.gpu.cc_major();
    call.amd = sys.gpu.is_amd();
    call.fabric = sys.fabric.kind;
    call.minor_version = sys.nccl.minor_version;
    call.ring_bus_gbps = nccl_ring_bus_gbps(sys, e.crosses_network ? std::min(fabric, network) : fabric);
    // Send/recv run NCCL's point-to-point kernels, outside its ring cost model: the system's step latency.
    const bool p2p = op.kind == CollectiveKind::send || op.kind == CollectiveKind::recv;
    const bool protocols = sys.nccl.protocols && !call.amd && call.cc_major > 0 && !p2p;
    const auto ring_cost = [&](NcclAlgorithm algo, NcclProtocol p, double hops, double net_hops) {
      // latency: NCCL's base latency and per-hop latency of the protocol (a hop across the network at
      // least the network's latency), or the system's step latency where NCCL's tables do not apply
      PathCost c;
      c.protocol = protocols ? p : NcclProtocol::simple;
      if (!protocols) {
        c.latency_us = hops * step + net_hops * std::max(step, sys.network.latency_us);
      } else {
        const double hop = nccl_hop_latency_us(call, algo, p);
        c.latency_us =
            nccl_base_latency_us(algo, p) + hops * hop + net_hops * std::max(hop, sys.network.latency_us);
      }
      if (c.protocol == NcclProtocol::ll) {
        // LL: NCCL's capped bus rate, no ramp (its lines need no chunk pipeline to fill)
        const double ll_gbps = std::min(nccl_model_bus_gbps(call, NcclProtocol::ll), ring_rate);
        c.transfer_us = transfer(e.wire_bytes, ll_gbps);
        c.capped_transfer_us = c.transfer_us;
        c.rate_gbps = ll_gbps;
      } else {
        double rate = ring_rate * ramp;
        if (c.protocol == NcclProtocol::ll128)
          rate = std::min(rate * kLl128OfSimple, nccl_model_bus_gbps(call, p));
        c.transfer_us = transfer(e.wire_bytes, rate);
        c.rate_gbps = rate;
      }
      return c;
    };
    const int net_steps = e.crosses_network ? steps : 0;
    const auto ring =
        ring_cost(NcclAlgorithm::ring,
                  protocols ? nccl_choose_protocol(call, NcclAlgorithm::ring) : NcclProtocol::simple,
                  steps - net_steps, net_steps);
    const double ring_time = std::max(base, gpu_fixed + ring.latency_us + ring.transfer_us);
    e.algorithm = p2p ? "p2p" : "ring";
    e.protocol = std::string(nccl_protocol_name(ring.protocol));
    e.steps = steps;
    e.latency_us = ring.latency_us;
    e.transfer_us = ring.transfer_us;
    e.capped_transfer_us = ring.capped_transfer_us;
    e.link_gbps = e.crosses_network && network < fabric * plateau ? network : fabric;
    e.efficiency = ring.rate_gbps / e.link_gbps;
    double best = ring_time;
    // Tree (all-reduce across domains): a chain inside each domain, a double binary tree between
    // domains: log2 network hops instead of one per ring step.
    if (op.kind == CollectiveKind::all_reduce && e.crosses_network) {
      const int log_nodes = int(std::ceil(std::log2(e.nodes_spanned)));
      const int tree_steps = 2 * (log_nodes + (local - 1));
      const auto tree =
          ring_cost(NcclAlgorithm::tree, nccl_choose_protocol(call, NcclAlgorithm::tree), 2 * (local - 1), 0);
      // the tree's network hops at the network's latency (NCCL's hop latency where larger)
      const double tree_latency = tree.latency_us + 2 * log_nodes * sys.network.latency_us;
      const double tree_time = std::max(base, gpu_fixed + tree_latency + tree.transfer_us);
      if (tree_time < best) {
        best = tree_time;
        e.algorithm = "tree";
        e.protocol = std::string(nccl_protocol_name(tree.protocol));
        e.steps = tree_steps;
        e.latency_us = tree_latency;
        e.transfer_us = tree.transfer_us;
        e.capped_transfer_us = tree.capped_transfer_us;
      }
    }
    // NVLS: the switch reduces; each GPU sends and receives the buffer once.
    if (op.kind == CollectiveKind::all_reduce && !e.crosses_network && sys.fabric.nvls &&
        sys.fabric.kind == hw::FabricKind::nvswitch) {
      const double nvls_latency = kNvlsSteps * step;
      const double nvls_transfer = transfer(op.bytes, fabric * sys.nccl.nvls_efficiency * ramp);
      const double nvls_time = std::max(base, gpu_fixed + nvls_latency + nvls_transfer);
      if (nvls_time < best) {
        best = nvls_time;
        e.algorithm = "nvls";
        e.protocol = "Simple";
        e.capped_transfer_us = 0;
        e.steps = kNvlsSteps;
        e.latency_us = nvls_latency;
        e.transfer_us = nvls_transfer;
        e.link_gbps = fabric;
        e.efficiency = sys.nccl.nvls_efficiency * ramp;
        e.sm_share = std::min(e.sm_share, kNvlsChannelShare * double(sys.nccl.channels) / sys.gpu.sm.count);
      }
    }
  }
  // The call's fixed cost (the host's issue time of back-to-back eager calls) overlaps the GPU's
  // work on a long call: a call takes at least the fixed cost, else its GPU time (the GPU-side fixed
  // cost, the steps and the transfer), which is all a call costs inside a CUDA graph.
  e.fixed_us = base;
  e.gpu_fixed_us = gpu_fixed;
  e.gpu_us = gpu_fixed + e.latency_us + e.transfer_us;
  e.time_us = std::max(base, e.gpu_us);
  e.graph_us = gpu_split ? e.gpu_us : e.time_us;
  e.host_split = gpu_split;
  e.program_host_us = gpu_split && sys.nccl.program_host_us >= 0 ? sys.nccl.program_host_us : base;
  e.peer_skew = sys.nccl.rank_host_spread * expected_max_standard_normal(n);
  e.algbw_gbps = e.time_us > 0 ? op.bytes / (e.time_us * 1e3) : 0;
  e.busbw_gbps = e.algbw_gbps * bf;
  e.dram_bytes = op.bytes + 2 * e.wire_bytes;
  if (!std::isfinite(e.time_us) || e.time_us < 0 || !std::isfinite(e.gpu_us))
    throw UnsupportedError(
        "collective model produced a non-finite time; check the system's fabric and nccl keys");
  return e;
}

}  // namespace gpucast::models
