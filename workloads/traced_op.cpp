#include "workloads/traced_op.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace gpucast::wl {

std::string_view traced_bound_name(TracedBound b) {
  switch (b) {
    case TracedBound::compute: return "compute";
    case TracedBound::latency: return "latency";
    case TracedBound::launch: return "launch";
    default: return "memory";
  }
}

TracedFigures traced_figures(const hw::GpuSpec& g, TracedPipe pipe, DataType dtype) {
  TracedFigures f;
  f.dram_gbps = g.memory.bandwidth_gbps * g.efficiency.dram_bandwidth;
  f.clock_mhz = g.sm.sustained_clock_mhz;
  f.sms = g.sm.count;
  // The shortest kernel as a trace sees it: one queued back-to-back launch (launch.queued_kernel_us).
  f.floor_us = g.launch.queued_kernel_us;
  if (pipe == TracedPipe::tensor) {
    DataType t = dtype;
    if (!g.has_tensor(t)) t = g.has_tensor(DataType::fp16) ? DataType::fp16 : t;  // fp8 kernels on older GPUs
    f.tflops = g.has_tensor(t) ? g.tensor_tflops(t) * g.tensor_efficiency(t) : g.compute.fp32_tflops * g.efficiency.fp32;
  } else {
    f.tflops = g.compute.fp32_tflops * g.efficiency.fp32;
  }
  return f;
}

void set_traced_source(TracedOp& op, const hw::GpuSpec& source) {
  const auto f = traced_figures(source, op.pipe, op.dtype);
  op.source_gpu = source.id;
  op.source_dram_gbps = f.dram_gbps;
  op.source_tflops = f.tflops;
  op.source_clock_mhz = f.clock_mhz;
  op.source_sms = f.sms;
  op.source_floor_us = f.floor_us;
}

double traced_duration_us(const TracedOp& op, const hw::GpuSpec& target) {
  const auto f = traced_figures(target, op.pipe, op.dtype);
  const double t = op.measured_us;
  switch (op.bound) {
    case TracedBound::memory: return t * op.source_dram_gbps / f.dram_gbps;
    case TracedBound::compute: return t * op.source_tflops / f.tflops;
    case TracedBound::launch: return t * f.floor_us / op.source_floor_us;
    case TracedBound::latency: {
      // Sub-wave: every block runs at once on the source; on the target the blocks take
      // ceil(blocks / SMs) rounds (one when they fit), each at the target's clock.
      const double rounds_src = op.blocks > 0 ? std::max(1.0, std::ceil(op.blocks / std::max(1, op.source_sms))) : 1.0;
      const double rounds_tgt = op.blocks > 0 ? std::max(1.0, std::ceil(op.blocks / std::max(1, f.sms))) : 1.0;
      return t * (op.source_clock_mhz / f.clock_mhz) * (rounds_tgt / rounds_src);
    }
  }
  return t;
}

std::string traced_shape(const TracedOp& op) {
  std::ostringstream s;
  s.precision(4);
  s << op.measured_us << " us on " << (op.source_gpu.empty() ? "source" : op.source_gpu) << ", "
    << traced_bound_name(op.bound) << "-bound";
  if (op.bound == TracedBound::compute)
    s << " (" << (op.pipe == TracedPipe::tensor ? std::string(to_string(op.dtype)) + " tensor" : "fp32") << ")";
  if (op.kernels > 1) s << ", " << op.kernels << " kernels";
  return s.str();
}

}  // namespace gpucast::wl
