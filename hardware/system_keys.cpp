#include "hardware/system_keys.h"

namespace gpucast::hw {
namespace {
using K = ValueKind;
using R = Rule;
constexpr bool kReq = true;
constexpr bool kOpt = false;

// Per-collective key paths need storage that outlives the string_views in KeyDef.
const std::vector<std::string>& per_collective_paths() {
  static const std::vector<std::string> kPaths = [] {
    std::vector<std::string> out;
    for (const auto& c : nccl_collective_names()) {
      out.push_back("nccl." + c + ".bus_efficiency");
      out.push_back("nccl." + c + ".base_latency_us");
      out.push_back("nccl." + c + ".gpu_latency_us");
      out.push_back("nccl." + c + ".ramp_bytes");
    }
    return out;
  }();
  return kPaths;
}
}  // namespace

const std::vector<std::string>& nccl_collective_names() {
  static const std::vector<std::string> kNames{"all_reduce", "all_gather", "reduce_scatter",
                                               "all_to_all", "broadcast",  "send_recv"};
  return kNames;
}

const std::vector<KeyDef>& system_keys() {
  static const std::vector<KeyDef> kKeys = [] {
    std::vector<KeyDef> k{
        {"name", K::string, "", kReq, R::none, "product name"},
        {"extends", K::string, "", kOpt, R::none, "system id or .toml path to inherit from, then override"},
        {"notes", K::string, "", kOpt, R::none, "free text"},
        {"gpu", K::string, "", kReq, R::none, "the GPU: catalog id or .toml path (relative to this file)"},
        {"nodes", K::integer, "nodes", kOpt, R::positive, "nodes (default 1)"},
        {"gpus_per_node", K::integer, "GPUs", kReq, R::positive, "GPUs in one node"},
        {"price_usd", K::number, "USD", kOpt, R::positive, "price of the whole system, when published"},

        {"fabric.kind", K::string, "", kReq, R::none,
         "intra-node fabric: nvswitch (all-to-all at full per-GPU rate), mesh (point-to-point links) or "
         "pcie"},
        {"fabric.generation", K::string, "", kOpt, R::none, "e.g. nvlink4, nvlink5, pcie4, infinity-fabric"},
        {"fabric.bandwidth_gbps", K::number, "GB/s", kReq, R::positive,
         "per GPU, per direction, all its fabric links together"},
        {"fabric.domain_gpus", K::integer, "GPUs", kOpt, R::positive,
         "GPUs one fabric joins (default gpus_per_node; 72 for GB200 NVL72)"},
        {"fabric.nvls", K::integer, "0/1", kOpt, R::non_negative,
         "1: NVLink SHARP in-switch all-reduce available and enabled (NCCL_NVLS_ENABLE)"},

        {"network.kind", K::string, "", kOpt, R::none, "inter-node network: infiniband-ndr, roce, none"},
        {"network.nics_per_node", K::integer, "NICs", kOpt, R::non_negative, "NICs per node for GPU traffic"},
        {"network.nic_gbits", K::number, "Gb/s", kOpt, R::non_negative, "line rate of one NIC per direction"},
        {"network.latency_us", K::number, "us", kOpt, R::non_negative,
         "one inter-node hop of a collective step"},
        {"network.efficiency", K::number, "", kOpt, R::fraction,
         "share of the line rate collectives sustain"},

        {"host_link.kind", K::string, "", kOpt, R::none, "GPU-host link, e.g. pcie5, nvlink-c2c"},
        {"host_link.bandwidth_gbps", K::number, "GB/s", kOpt, R::positive, "per GPU, per direction"},

        {"nccl.base_latency_us", K::number, "us", kReq, R::non_negative,
         "fixed cost of one collective: kernel launch, setup, final synchronization"},
        {"nccl.step_latency_us", K::number, "us", kReq, R::non_negative,
         "per algorithm step within the fabric"},
        {"nccl.bus_efficiency", K::number, "", kReq, R::fraction,
         "plateau bus bandwidth over the fabric line rate"},
        {"nccl.nvls_efficiency", K::number, "", kReq, R::fraction,
         "NVLS all-reduce: plateau algorithm bandwidth over the line rate"},
        {"nccl.ramp_bytes", K::number, "bytes", kReq, R::positive,
         "message size at which the bandwidth efficiency is half its plateau"},
        {"nccl.ramp_exponent", K::number, "", kReq, R::positive,
         "steepness of the efficiency ramp: e(S) = 1/(1 + (ramp_bytes/S)^ramp_exponent)"},
        {"nccl.channels", K::integer, "SMs", kReq, R::positive,
         "SMs the collective kernels occupy (one block per NCCL channel)"},
        {"nccl.gpu_latency_us", K::number, "us", kOpt, R::non_negative,
         "GPU-side fixed cost of one call (what a call costs inside a CUDA graph at zero bytes); default: "
         "not "
         "measured (no GPU-side fixed cost, and a CUDA graph keeps the eager floor)"},
        {"nccl.program_host_us", K::number, "us", kOpt, R::non_negative,
         "host time of one eager collective call amid other work (the cost it leaves on the next op "
         "included); back-to-back calls keep base_latency_us; default: base_latency_us"},
        {"nccl.protocols", K::integer, "0/1", kOpt, R::non_negative,
         "1 (default): NCCL's protocols (LL, LL128, Simple), chosen by NCCL's cost model, with its latencies "
         "(models/nccl_protocol.h); 0: one protocol at nccl.step_latency_us per step (RCCL always)"},
        {"nccl.minor_version", K::integer, "", kOpt, R::positive,
         "the NCCL 2.x release the system runs (x; default 28): its LL protocol's bandwidth rule "
         "(models/nccl_protocol.h)"},
        {"nccl.rank_host_spread", K::number, "", kOpt, R::fraction,
         "relative spread of the ranks' host speeds (std / mean): an eager collective starts when the "
         "slowest rank has issued it; default 0 (ranks in lockstep)"},
    };
    const auto& paths = per_collective_paths();
    for (size_t i = 0; i < paths.size(); i += 4) {
      k.push_back({paths[i], K::number, "", kOpt, R::fraction, "this collective's plateau bus efficiency"});
      k.push_back({paths[i + 1], K::number, "us", kOpt, R::non_negative, "this collective's fixed cost"});
      k.push_back(
          {paths[i + 2], K::number, "us", kOpt, R::non_negative, "this collective's GPU-side fixed cost"});
      k.push_back({paths[i + 3], K::number, "bytes", kOpt, R::positive, "this collective's efficiency ramp"});
    }
    return with_ranges(k);
  }();
  return kKeys;
}

const KeyDef* find_system_key(std::string_view path) {
  for (const auto& key : system_keys())
    if (key.path == path) return &key;
  return nullptr;
}

std::vector<std::string> system_key_names() {
  std::vector<std::string> names;
  for (const auto& key : system_keys()) names.emplace_back(key.path);
  return names;
}

}  // namespace gpucast::hw
