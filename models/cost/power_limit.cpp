#include "models/cost/power_limit.h"

#include <cmath>
#include <string>

#include "common/errors.h"

namespace gpucast::models::cost {

double clock_fraction_under_cap(double rated_w, double cap_w) {
  if (rated_w <= 0) throw UsageError("the GPU's rated power must be positive to apply a power limit");
  if (cap_w >= rated_w) return 1.0;
  const double share = cap_w / rated_w;
  if (share <= kStaticPowerShare)
    throw UsageError("a power limit of " + std::to_string(int(cap_w)) + " W is below the " +
                     std::to_string(int(rated_w * kStaticPowerShare)) +
                     " W this GPU draws before its clock contributes; raise --power-limit-w");
  return std::cbrt((share - kStaticPowerShare) / (1.0 - kStaticPowerShare));
}

hw::GpuSpec at_clock_fraction(hw::GpuSpec gpu, double f) {
  if (!(f > 0 && f <= 1)) throw UsageError("a clock fraction must be in (0, 1]");
  gpu.sm.sustained_clock_mhz *= f;
  gpu.compute.fp32_tflops *= f;
  gpu.compute.fp64_tflops *= f;
  gpu.compute.sfu_tops *= f;
  for (auto& [type, tflops] : gpu.compute.tensor_tflops) tflops *= f;
  gpu.cache.l2_bandwidth_gbps *= f;
  gpu.cache.sm_l2_bandwidth_gbps *= f;
  gpu.memory.sm_bandwidth_gbps *= f;
  gpu.launch.blocks_per_us *= f;
  // DRAM latency is set by the memory system in nanoseconds: fewer SM cycles at a lower clock.
  gpu.latency.dram_cycles *= f;
  return gpu;
}

}  // namespace gpucast::models::cost
