#include "sim/speed_of_light.h"

#include <algorithm>
#include <cmath>
#include <type_traits>

namespace gpucast::sim {

std::string sol_pipe(const wl::Op& op, const hw::GpuSpec& gpu) {
  const DataType dtype = wl::op_compute_dtype(op);
  const bool matrix = std::visit(
      [](const auto& o) {
        using T = std::decay_t<decltype(o)>;
        return std::is_same_v<T, wl::GemmOp> || std::is_same_v<T, wl::AttentionOp> ||
               std::is_same_v<T, wl::Conv2dOp>;
      },
      op);
  if (matrix && gpu.has_tensor(dtype)) return "tensor " + std::string(to_string(dtype));
  return dtype == DataType::fp64 ? "fp64" : "fp32";
}

double sol_peak_tflops(const std::string& pipe, const hw::GpuSpec& gpu) {
  if (pipe == "fp64") return gpu.compute.fp64_tflops;
  if (pipe == "fp32") return gpu.compute.fp32_tflops;
  if (pipe.rfind("tensor ", 0) == 0)
    if (const auto t = parse_dtype(pipe.substr(7)); t && gpu.has_tensor(*t)) return gpu.tensor_tflops(*t);
  return 0;
}

SpeedOfLight speed_of_light(const std::string& pipe, const hw::GpuSpec& gpu, double flops, double dram_bytes,
                            double duration_us, Bound bound) {
  SpeedOfLight s;
  s.pipe = pipe;
  s.peak_tflops = sol_peak_tflops(pipe, gpu);
  s.peak_gbps = gpu.memory.bandwidth_gbps;
  if (!(duration_us > 0) || !std::isfinite(duration_us)) return s;
  s.achieved_tflops = flops / duration_us * 1e-6;
  s.achieved_gbps = dram_bytes / duration_us * 1e-3;
  s.compute_pct = s.peak_tflops > 0 ? 100 * s.achieved_tflops / s.peak_tflops : 0;
  s.memory_pct = s.peak_gbps > 0 ? 100 * s.achieved_gbps / s.peak_gbps : 0;
  switch (bound) {
    case Bound::compute:
      s.bound_pct = s.compute_pct;
      break;
    case Bound::memory:
      s.bound_pct = s.memory_pct;
      break;
    default:
      s.bound_pct = std::max(s.compute_pct, s.memory_pct);
  }
  return s;
}

}  // namespace gpucast::sim
