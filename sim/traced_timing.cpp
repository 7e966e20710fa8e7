#include "sim/traced_timing.h"

#include <algorithm>

namespace gpucast::sim {

OpTiming traced_timing(const wl::TracedOp& op, const hw::GpuSpec& gpu, const GpuRates& rates) {
  OpTiming t;
  t.option = "scaled from " + (op.source_gpu.empty() ? std::string("the source GPU") : op.source_gpu);
  KernelTiming k;
  k.name = "traced";
  k.exec_us = wl::traced_duration_us(op, gpu);
  // Share of the SMs for concurrent streams: the grid's blocks against one block per SM (the
  // trace does not say how many fit), the whole GPU when unknown.
  k.waves = op.blocks > 0 ? op.blocks / std::max(1, rates.sms) : 1.0;
  k.blocks_per_sm = 1;
  switch (op.bound) {
    case wl::TracedBound::compute: k.compute_us = k.exec_us; break;
    case wl::TracedBound::memory: k.memory_us = k.exec_us; break;
    default: k.latency_us = k.exec_us; break;
  }
  // DRAM traffic: the estimate when known, else a memory-bound kernel streams at the sustained rate.
  k.dram_bytes = op.bytes > 0 ? op.bytes : op.bound == wl::TracedBound::memory ? k.exec_us * rates.dram : 0;
  k.flops = op.flops;
  t.exec_us = k.exec_us;
  t.dram_bytes = k.dram_bytes;
  t.kernels.assign(static_cast<size_t>(std::max(1, op.kernels)), KernelTiming{});
  t.kernels[0] = k;
  for (size_t i = 1; i < t.kernels.size(); ++i) t.kernels[i].waves = k.waves;
  t.overhead_us = rates.launch + rates.queued * double(t.kernels.size() - 1);
  t.duration_us = t.overhead_us + t.exec_us;
  t.flops = op.flops;
  t.bound = op.bound == wl::TracedBound::compute  ? Bound::compute
            : op.bound == wl::TracedBound::memory ? Bound::memory
            : op.bound == wl::TracedBound::launch ? Bound::launch
                                                  : Bound::latency;
  return t;
}

}  // namespace gpucast::sim
