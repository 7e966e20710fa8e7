#pragma once
// Builds GPU descriptions with round numbers so that tests can compute expectations by hand:
// gpu_builder{}.sms(100).bandwidth_gbps(1000).build().
#include <string>

#include "hardware/gpu_spec.h"
#include "support/temp_dir.h"

namespace gpucast::test {

class gpu_builder {
 public:
  gpu_builder();
  gpu_builder& sms(int n) { return set("sm.count", std::to_string(n)); }
  gpu_builder& clock_mhz(double mhz) { return set("sm.sustained_clock_mhz", num(mhz)); }
  gpu_builder& bandwidth_gbps(double v) { return set("memory.bandwidth_gbps", num(v)); }
  gpu_builder& sm_bandwidth_gbps(double v) { return set("memory.sm_bandwidth_gbps", num(v)); }
  gpu_builder& tensor_tflops(const std::string& dtype, double v) { return set("compute.tensor_tflops." + dtype, num(v)); }
  gpu_builder& l2_mb(double v) { return set("cache.l2_mb", num(v)); }
  gpu_builder& launch_us(double v) { return set("launch.kernel_us", num(v)); }
  gpu_builder& host_eager_us(double v) { return set("launch.host_eager_us", num(v)); }
  gpu_builder& set(const std::string& key, const std::string& toml_value);
  [[nodiscard]] hw::GpuSpec build() const;

 private:
  static std::string num(double v);
  GpuFileBuilder file_;
};

}  // namespace gpucast::test
