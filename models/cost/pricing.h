#pragma once
// What a GPU costs to buy into a machine and to rent, from the catalog's [price] and [[cloud]]
// entries, with the documented defaults for the machine around the GPU.
#include <optional>
#include <string>

#include "hardware/gpu_spec.h"
#include "models/cost/ownership.h"

namespace gpucast::models::cost {

// The machine a GPU is bought into. PCIe cards go into a desktop or workstation; SXM modules into
// a multi-GPU server, of which one GPU carries its share.
struct MachineDefaults {
  std::string kind;  // "desktop" or "server share"
  Usd machine_usd = 0;
  Watts host_watts = 0;  // CPU, memory, fans, PSU losses while the GPU works
};

// Desktop: CPU, board, 64 GB RAM, SSD, 1000 W PSU, case (about $1,000 in 2025 parts), drawing
// about 100 W besides the GPU (Dettmers' figure). Server: an 8-GPU HGX chassis without GPUs
// (CPUs, memory, NICs, switches) at roughly $80,000, an eighth per GPU, and its host power share.
// Assumptions, documented in docs/whatif.md.
inline const MachineDefaults kDesktopMachine{"desktop", 1000, 100};
inline const MachineDefaults kServerShare{"server share", 10000, 300};

[[nodiscard]] MachineDefaults default_machine(const hw::GpuSpec& gpu);

struct CloudPrice {
  std::string provider;
  std::string instance;
  std::string date;
  std::string source;
  Usd usd_per_gpu_hour = 0;
  bool spot = false;
};

// The cheapest on-demand (or spot) price per GPU-hour among the catalog's offers, if any.
[[nodiscard]] std::optional<CloudPrice> cheapest_on_demand(const hw::GpuSpec& gpu);
[[nodiscard]] std::optional<CloudPrice> cheapest_spot(const hw::GpuSpec& gpu);

}  // namespace gpucast::models::cost
