#include "models/cost/pricing.h"

#include <algorithm>
#include <cctype>

namespace gpucast::models::cost {
namespace {
bool is_server_module(const hw::GpuSpec& gpu) {
  std::string name = gpu.name + " " + gpu.id;
  std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
  if (name.find("sxm") != std::string::npos) return true;
  if (name.find("pcie") != std::string::npos) return false;
  // Modules without "SXM" in their name: HGX/NVL Blackwell, Grace superchips, AMD OAM. They carry
  // HBM and a fast GPU-to-GPU link; PCIe cards with an NVLink bridge stay below 400 GB/s.
  return gpu.memory.type.rfind("HBM", 0) == 0 && gpu.nvlink_gbps >= 400;
}

std::optional<CloudPrice> cheapest(const hw::GpuSpec& gpu, bool spot) {
  std::optional<CloudPrice> best;
  for (const auto& offer : gpu.cloud) {
    const auto rate = spot ? offer.spot_usd_per_gpu_hour() : std::optional<double>(offer.usd_per_gpu_hour());
    if (!rate) continue;
    if (!best || *rate < best->usd_per_gpu_hour)
      best = CloudPrice{offer.provider, offer.instance, offer.date, offer.source, *rate, spot};
  }
  return best;
}
}  // namespace

MachineDefaults default_machine(const hw::GpuSpec& gpu) {
  return is_server_module(gpu) ? kServerShare : kDesktopMachine;
}

std::optional<CloudPrice> cheapest_on_demand(const hw::GpuSpec& gpu) { return cheapest(gpu, false); }
std::optional<CloudPrice> cheapest_spot(const hw::GpuSpec& gpu) { return cheapest(gpu, true); }

}  // namespace gpucast::models::cost
