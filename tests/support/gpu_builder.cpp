#include "support/gpu_builder.h"

#include <sstream>

namespace gpucast::test {

gpu_builder::gpu_builder() {
  // A tidy GPU: 100 SMs at 1 GHz, 1000 GB/s, every efficiency 1, no first-touch penalty worth
  // speaking of, so that time = bytes / bandwidth and FLOPs / rate exactly.
  file_.set("sm.count", "100")
      .set("sm.boost_clock_mhz", "1000.0")
      .set("sm.sustained_clock_mhz", "1000.0")
      .set("memory.bandwidth_gbps", "1000.0")
      .set("memory.sm_bandwidth_gbps", "1000.0")
      .set("cache.l2_bandwidth_gbps", "100000.0")
      .set("cache.sm_l2_bandwidth_gbps", "100000.0")
      .set("compute.tensor_tflops.bf16", "400.0")
      .set("compute.tensor_tflops.fp8", "800.0")
      .set("latency.first_touch_us", "0.001")
      .set("launch.kernel_us", "2.0")
      .set("launch.queued_kernel_us", "1.0")
      .set("launch.host_eager_us", "5.0")
      .set("efficiency.dram_bandwidth", "1.0")
      .set("efficiency.copy_engine", "0.9")
      .set("efficiency.l2_bandwidth", "1.0")
      .set("efficiency.memory_parallelism", "1.0")
      .set("efficiency.tensor.bf16", "1.0")
      .set("efficiency.tensor.fp8", "1.0");
}

gpu_builder& gpu_builder::set(const std::string& key, const std::string& toml_value) {
  file_.set(key, toml_value);
  return *this;
}

std::string gpu_builder::num(double v) {
  std::ostringstream s;
  s.precision(17);
  s << v;
  std::string t = s.str();
  if (t.find_first_of(".e") == std::string::npos) t += ".0";
  return t;
}

hw::GpuSpec gpu_builder::build() const {
  HardwareFixture fx;
  fx.add_gpu("test-gpu", file_.text());
  return fx.catalog().load("test-gpu");
}

}  // namespace gpucast::test
