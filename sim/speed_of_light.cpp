#include "sim/speed_of_light.h"

#include <algorithm>
#include <cmath>
#include <type_traits>

namespace gpucast::sim {

std::string sol_pipe(const wl::Op& op, const device::Device& gpu) {
  const DataType dtype = wl::op_compute_dtype(op);
  const bool matrix = std::visit(
      [](const auto& o) {
        using T = std::decay_t<decltype(o)>;
        return std::is_same_v<T, wl::GemmOp> || std::is_same_v<T, wl::AttentionOp> || std::is_same_v<T, wl::Conv2dOp>;
      },
      op);
  if (matrix && gpu.has_tensor(dtype)) return "tensor " + std::string(to_string(dtype));
  return dtype == DataType::fp64 ? "fp64" : "fp32";
}

SpeedOfLight speed_of_light(const std::string& pipe, double peak_tflops, double peak_gbps, double flops,
                            double dram_bytes, double duration_us, Bound bound) {
  SpeedOfLight s;
  s.pipe = pipe;
  s.peak_tflops = peak_tflops;
  s.peak_gbps = peak_gbps;
  if (!(duration_us > 0) || !std::isfinite(duration_us)) return s;
  s.achieved_tflops = flops / duration_us * 1e-6;
  s.achieved_gbps = dram_bytes / duration_us * 1e-3;
  s.compute_pct = s.peak_tflops > 0 ? 100 * s.achieved_tflops / s.peak_tflops : 0;
  s.memory_pct = s.peak_gbps > 0 ? 100 * s.achieved_gbps / s.peak_gbps : 0;
  switch (bound) {
    case Bound::compute: s.bound_pct = s.compute_pct; break;
    case Bound::memory: s.bound_pct = s.memory_pct; break;
    default: s.bound_pct = std::max(s.compute_pct, s.memory_pct);
  }
  return s;
}

}  // namespace gpucast::sim
