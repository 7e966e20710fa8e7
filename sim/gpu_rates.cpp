#include "sim/gpu_rates.h"

#include "common/errors.h"

namespace gpucast::sim {

GpuRates GpuRates::from(const hw::GpuSpec& g) {
  GpuRates r;
  r.sms = g.sm.count;
  r.warp_size = g.sm.warp_size;
  r.clock_mhz = g.sm.sustained_clock_mhz;
  const double us_per_cycle = 1.0 / r.clock_mhz;
  r.dram = g.memory.bandwidth_gbps * 1e3 * g.efficiency.dram_bandwidth;
  r.l2 = g.cache.l2_bandwidth_gbps * 1e3 * g.efficiency.l2_bandwidth;
  r.sm_dram = g.memory.sm_bandwidth_gbps * 1e3;
  r.sm_l2 = g.cache.sm_l2_bandwidth_gbps * 1e3;
  // The latency that sets how much must be in flight to stream: the pointer-chase latency divided
  // by the share of it that overlaps (efficiency.memory_parallelism, fitted to the in-flight sweep).
  r.dram_latency = g.latency.dram_cycles * us_per_cycle / g.efficiency.memory_parallelism;
  r.l2_round = g.latency.l2_cycles * us_per_cycle;
  r.first_touch = g.latency.first_touch_us;
  r.launch = g.launch.kernel_us;
  r.queued = g.launch.queued_kernel_us;
  r.flush = 256.0 * 1024 * 1024 / r.dram;
  r.blocks_per_us = g.launch.blocks_per_us;
  r.simt_lanes_per_us = 128.0 * r.clock_mhz;
  r.sfu_per_us = g.compute.sfu_tops * 1e6 / r.sms * g.efficiency.sfu;
  r.fp32_per_us = g.compute.fp32_tflops * 1e6 / r.sms * g.efficiency.fp32;
  r.fp64_per_us = g.compute.fp64_tflops * 1e6 / r.sms * g.efficiency.fp64;
  for (const auto& [t, tflops] : g.compute.tensor_tflops) {
    const double peak = tflops * 1e6 / r.sms;
    r.tensor_per_us[t] = peak * g.tensor_efficiency(t);
    r.mma_sync_per_us[t] = peak * g.efficiency.mma_sync;
  }
  return r;
}

FlopsPerUs GpuRates::pipe_rate(models::Pipe pipe, DataType dtype) const {
  switch (pipe) {
    case models::Pipe::fp32: return fp32_per_us;
    case models::Pipe::fp64: return fp64_per_us;
    case models::Pipe::tensor:
    case models::Pipe::mma_sync: {
      const auto& table = pipe == models::Pipe::tensor ? tensor_per_us : mma_sync_per_us;
      auto it = table.find(dtype);
      if (it == table.end())
        throw UnsupportedError("this GPU has no " + std::string(to_string(dtype)) + " tensor-core rate");
      return it->second;
    }
    default: return 0;
  }
}

}  // namespace gpucast::sim
