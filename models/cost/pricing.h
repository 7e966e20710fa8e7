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
