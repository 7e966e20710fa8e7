#include "support/temp_dir.h"

#include <atomic>
#include <fstream>
#include <random>

namespace gpucast::test {
namespace fs = std::filesystem;

fs::path source_dir() { return fs::path(GPUCAST_SOURCE_DIR); }

TempDir::TempDir() {
  std::random_device rd;
  path_ = fs::temp_directory_path() / ("gpucast-test-" + std::to_string(rd()) + std::to_string(rd()));
  fs::create_directories(path_);
}

TempDir::~TempDir() {
  std::error_code ec;
  fs::remove_all(path_, ec);
}

fs::path TempDir::write(const std::string& relative, const std::string& text) const {
  const fs::path p = path_ / relative;
  fs::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary) << text;
  return p;
}

GpuFileBuilder::GpuFileBuilder() {
  values_ = {
      {"name", "\"Test GPU\""},
      {"vendor", "\"NVIDIA\""},
      {"architecture", "\"hopper\""},
      {"compute_capability", "\"9.0\""},
      {"sm.count", "100"},
      {"sm.boost_clock_mhz", "2000.0"},
      {"sm.max_threads", "2048"},
      {"sm.max_blocks", "32"},
      {"sm.registers_kb", "256.0"},
      {"sm.shared_memory_kb", "228.0"},
      {"compute.fp32_tflops", "50.0"},
      {"compute.fp64_tflops", "25.0"},
      {"compute.tensor_tflops.bf16", "800.0"},
      {"memory.capacity_gb", "80.0"},
      {"memory.type", "\"HBM3\""},
      {"memory.bus_width_bits", "5120"},
      {"memory.bandwidth_gbps", "3000.0"},
      {"cache.l2_mb", "50.0"},
      {"cache.l1_kb_per_sm", "256.0"},
      {"latency.dram_cycles", "800.0"},
      {"latency.l2_cycles", "250.0"},
      {"latency.l1_cycles", "35.0"},
      {"latency.shared_cycles", "30.0"},
      {"launch.kernel_us", "2.5"},
      {"host.pcie_gbps", "64.0"},
      {"interconnect.nvlink_gbps", "0.0"},
      {"power.tdp_w", "700.0"},
      {"price.usd", "25000.0"},
  };
}

GpuFileBuilder& GpuFileBuilder::set(const std::string& path, const std::string& toml_value) {
  values_[path] = toml_value;
  return *this;
}
GpuFileBuilder& GpuFileBuilder::remove(const std::string& path) {
  values_.erase(path);
  return *this;
}
GpuFileBuilder& GpuFileBuilder::extends(const std::string& target) {
  extends_ = target;
  return *this;
}
GpuFileBuilder& GpuFileBuilder::raw(const std::string& text) {
  raw_ += text;
  return *this;
}

std::string GpuFileBuilder::text() const {
  // Top-level keys first, then one [section] per dotted prefix, so the file is plain TOML.
  std::string out;
  if (!extends_.empty()) out += "extends = \"" + extends_ + "\"\n";
  std::map<std::string, std::vector<std::pair<std::string, std::string>>> sections;
  for (const auto& [path, value] : values_) {
    const auto dot = path.rfind('.');
    if (dot == std::string::npos) {
      out += path + " = " + value + "\n";
    } else {
      sections[path.substr(0, dot)].emplace_back(path.substr(dot + 1), value);
    }
  }
  for (const auto& [section, entries] : sections) {
    out += "\n[" + section + "]\n";
    for (const auto& [key, value] : entries) out += key + " = " + value + "\n";
  }
  return out + raw_;
}

HardwareFixture::HardwareFixture() {
  const fs::path arch_src = source_dir() / "hardware" / "catalog" / "architectures";
  const fs::path arch_dst = dir_.path() / "hardware" / "catalog" / "architectures";
  fs::create_directories(arch_dst);
  for (const auto& entry : fs::directory_iterator(arch_src)) fs::copy_file(entry.path(), arch_dst / entry.path().filename());
}

fs::path HardwareFixture::add_gpu(const std::string& id, const std::string& text) const {
  return dir_.write("hardware/catalog/" + id + ".toml", text);
}

}  // namespace gpucast::test
