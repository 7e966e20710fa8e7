#include "sim/traced_timing.h"

#include <algorithm>
#include <cmath>

namespace gpucast::sim {

TracedFigures traced_figures(const device::Device& g, wl::TracedPipe pipe, DataType dtype) {
  TracedFigures f;
  f.dram_gbps = g.rates().dram / 1e3;
  f.clock_mhz = g.clock_mhz();
  f.sms = g.sms();
  f.floor_us = g.launch().queued_kernel_us;
  if (pipe == wl::TracedPipe::tensor) {
    DataType t = dtype;
    if (!g.has_tensor(t) && g.has_tensor(DataType::fp16)) t = DataType::fp16;  // fp8 kernels on older GPUs
    f.tflops = (g.has_tensor(t) ? g.pipe_rate(device::Pipe::tensor, t) : g.pipe_rate(device::Pipe::fp32, t)) *
               g.sms() / 1e6;
  } else {
    f.tflops = g.pipe_rate(device::Pipe::fp32, DataType::fp32) * g.sms() / 1e6;
  }
  return f;
}

void set_traced_source(wl::TracedOp& op, const device::Device& source) {
  const auto f = traced_figures(source, op.pipe, op.dtype);
  op.source_gpu = source.id();
  op.source_dram_gbps = f.dram_gbps;
  op.source_tflops = f.tflops;
  op.source_clock_mhz = f.clock_mhz;
  op.source_sms = f.sms;
  op.source_floor_us = f.floor_us;
}

double traced_duration_us(const wl::TracedOp& op, const device::Device& target) {
  const auto f = traced_figures(target, op.pipe, op.dtype);
  const double t = op.measured_us;
  switch (op.bound) {
    case wl::TracedBound::memory: return t * op.source_dram_gbps / f.dram_gbps;
    case wl::TracedBound::compute: return t * op.source_tflops / f.tflops;
    case wl::TracedBound::launch: return t * f.floor_us / op.source_floor_us;
    case wl::TracedBound::latency: {
      // Sub-wave: every block runs at once on the source; on the target the blocks take
      // ceil(blocks / SMs) rounds (one when they fit), each at the target's clock.
      const double rounds_src = op.blocks > 0 ? std::max(1.0, std::ceil(op.blocks / std::max(1, op.source_sms))) : 1.0;
      const double rounds_tgt = op.blocks > 0 ? std::max(1.0, std::ceil(op.blocks / std::max(1, f.sms))) : 1.0;
      return t * (op.source_clock_mhz / f.clock_mhz) * (rounds_tgt / rounds_src);
    }
  }
  return t;
}

OpTiming traced_timing(const wl::TracedOp& op, const device::Device& gpu) {
  OpTiming t;
  t.option = "scaled from " + (op.source_gpu.empty() ? std::string("the source GPU") : op.source_gpu);
  KernelTiming k;
  k.name = "traced";
  k.exec_us = traced_duration_us(op, gpu);
  // Share of the SMs for concurrent streams: the grid's blocks against one block per SM (the
  // trace does not say how many fit), the whole GPU when unknown.
  k.waves = op.blocks > 0 ? op.blocks / std::max(1, gpu.sms()) : 1.0;
  k.blocks_per_sm = 1;
  switch (op.bound) {
    case wl::TracedBound::compute: k.compute_us = k.exec_us; break;
    case wl::TracedBound::memory: k.memory_us = k.exec_us; break;
    default: k.latency_us = k.exec_us; break;
  }
  // DRAM traffic: the estimate when known, else a memory-bound kernel streams at the sustained rate.
  k.dram_bytes = op.bytes > 0 ? op.bytes : op.bound == wl::TracedBound::memory ? k.exec_us * gpu.rates().dram : 0;
  k.flops = op.flops;
  t.exec_us = k.exec_us;
  t.dram_bytes = k.dram_bytes;
  t.kernels.assign(static_cast<size_t>(std::max(1, op.kernels)), KernelTiming{});
  t.kernels[0] = k;
  for (size_t i = 1; i < t.kernels.size(); ++i) t.kernels[i].waves = k.waves;
  t.overhead_us = gpu.launch().standalone_overhead_us(static_cast<int>(t.kernels.size()), false);
  t.duration_us = t.overhead_us + t.exec_us;
  t.flops = op.flops;
  t.bound = op.bound == wl::TracedBound::compute  ? Bound::compute
            : op.bound == wl::TracedBound::memory ? Bound::memory
            : op.bound == wl::TracedBound::launch ? Bound::launch
                                                  : Bound::latency;
  return t;
}

}  // namespace gpucast::sim
