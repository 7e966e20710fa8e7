#include "fuzz/targets.h"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include "cli/sweep_grid.h"
#include "common/errors.h"
#include "hardware/catalog.h"
#include "hardware/host_catalog.h"
#include "hardware/overrides.h"
#include "hardware/system_catalog.h"
#include "sim/simulator.h"
#include "workloads/generate.h"
#include "workloads/model_config.h"
#include "workloads/trace/kineto_trace.h"
#include "workloads/trace/trace_links.h"
#include "workloads/trace/trace_workload.h"
#include "workloads/workload_file.h"

#ifndef GPUCAST_SOURCE_DIR
#define GPUCAST_SOURCE_DIR "."
#endif

namespace gpucast::fuzz {
namespace fs = std::filesystem;

namespace {

// Loaders that take paths get the bytes through one scratch file per process.
class ScratchFile {
 public:
  explicit ScratchFile(const std::string& name) {
    const fs::path base = fs::exists("/dev/shm") ? fs::path("/dev/shm") : fs::temp_directory_path();
    dir_ = base / ("gpucast-fuzz-" + std::to_string(::getpid()));
    fs::create_directories(dir_);
    path_ = dir_ / name;
  }
  ~ScratchFile() {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  const fs::path& write(const std::uint8_t* data, std::size_t size) {
    std::ofstream(path_, std::ios::binary | std::ios::trunc).write(reinterpret_cast<const char*>(data),
                                                                   static_cast<std::streamsize>(size));
    return path_;
  }

 private:
  fs::path dir_;
  fs::path path_;
};

const hw::Catalog& catalog() {
  static const hw::Catalog kCatalog(data_dir() / "hardware");
  return kCatalog;
}

const hw::GpuSpec& reference_gpu() {
  static const hw::GpuSpec kGpu = catalog().load("h100-sxm");
  return kGpu;
}

std::string text_of(const std::uint8_t* data, std::size_t size) {
  return std::string(reinterpret_cast<const char*>(data), size);
}

void predict(const hw::GpuSpec& gpu, const wl::Workload& w) {
  sim::Simulator simulator(gpu);
  const auto p = simulator.predict(w);
  (void)p.time_by_op();
  (void)p.time_by_bound();
}

// The model the system and host harnesses generate steps of (with kHarnessLayers layers, which keeps
// each run short); its heads divide by the harness's TP degree of 2.
const wl::ModelConfig& small_model() {
  static const wl::ModelConfig kModel = wl::load_model("llama-3-8b");
  return kModel;
}
constexpr int kHarnessLayers = 2;

}  // namespace

fs::path data_dir() {
  const char* home = std::getenv("GPUCAST_HOME");
  return home && *home ? fs::path(home) : fs::path(GPUCAST_SOURCE_DIR);
}

int gpu_file(const std::uint8_t* data, std::size_t size) {
  static ScratchFile scratch("gpu.toml");
  try {
    const hw::GpuSpec gpu = catalog().load(scratch.write(data, size).string());
    (void)gpu.cc_major();
    (void)gpu.ns_per_cycle();
    const auto w = wl::read_workload_text(
        "[[kernel]]\nop = \"gemm\"\nm = 4096\nn = 4096\nk = 4096\ndtype = \"fp32\"\n"
        "[[kernel]]\nop = \"softmax\"\nrows = 4096\ncols = 4096\ndtype = \"fp32\"\n"
        "[[kernel]]\nop = \"copy\"\nbytes = 1e6\nkind = \"h2d\"\n",
        "fixed.toml");
    predict(gpu, w);
  } catch (const Error&) {
  }
  return 0;
}

int workload_file(const std::uint8_t* data, std::size_t size) {
  try {
    const auto w = wl::read_workload_text(text_of(data, size), "fuzz.toml");
    (void)wl::write_workload(w);
    predict(reference_gpu(), w);
  } catch (const Error&) {
  }
  return 0;
}

int model_file(const std::uint8_t* data, std::size_t size) {
  static ScratchFile scratch("model.toml");
  try {
    const auto config = wl::load_model(scratch.write(data, size).string());
    (void)wl::parameter_count(config);
    for (const auto mode : {wl::Mode::inference, wl::Mode::prefill, wl::Mode::decode, wl::Mode::train}) {
      wl::GenerateOptions o;
      o.mode = mode;
      o.seq = 128;
      o.context = 256;
      o.max_kernels = 4000;  // keeps each run short; the limit itself is what large inputs exercise
      try {
        const auto g = wl::generate(config, o);
        predict(reference_gpu(), g.workload);
      } catch (const Error&) {
      }
    }
  } catch (const Error&) {
  }
  return 0;
}

int set_vary(const std::uint8_t* data, std::size_t size) {
  const std::string text = text_of(data, size);
  std::vector<std::string> sets;
  std::vector<std::string> varies;
  size_t start = 0;
  while (start <= text.size() && sets.size() + varies.size() < 16) {
    const size_t end = text.find('\n', start);
    const std::string line = text.substr(start, end == std::string::npos ? std::string::npos : end - start);
    if (line.rfind("vary ", 0) == 0) varies.push_back(line.substr(5));
    else if (!line.empty()) sets.push_back(line);
    if (end == std::string::npos) break;
    start = end + 1;
  }
  try {
    const auto overrides = hw::parse_overrides(sets);
    if (!overrides.empty()) {
      const auto gpu = catalog().load("h100-sxm", overrides);
      (void)gpu.cc_major();
    }
  } catch (const Error&) {
  }
  try {
    const auto axes = cli::parse_vary_all(varies, 1000);
    const size_t n = cli::grid_size(axes);
    for (size_t i = 0; i < n && i < 8; ++i) (void)cli::grid_point(axes, i);
    if (n > 0) {
      const auto last = cli::grid_point(axes, n - 1);
      std::vector<hw::Override> overrides;
      for (size_t i = 0; i < axes.size(); ++i)
        if (axes[i].kind == cli::AxisKind::hardware) overrides.push_back(hw::make_override(axes[i].key, last[i]));
      (void)catalog().load("h100-sxm", overrides);
    }
  } catch (const Error&) {
  }
  return 0;
}

int system_file(const std::uint8_t* data, std::size_t size) {
  static ScratchFile scratch("system.toml");
  try {
    const hw::SystemSpec system = hw::SystemCatalog(catalog()).load(scratch.write(data, size).string());
    const int ranks = std::clamp(system.total_gpus(), 1, 64);
    std::string text = "[[kernel]]\nop = \"gemm\"\nm = 2048\nn = 2048\nk = 2048\ndtype = \"bf16\"\n";
    for (const char* op :
         {"all_reduce", "all_gather", "reduce_scatter", "all_to_all", "broadcast", "send", "recv"})
      for (const char* bytes : {"8192", "67108864"})
        text += std::string("[[kernel]]\nop = \"") + op + "\"\nbytes = " + bytes +
                "\ndtype = \"bf16\"\nranks = " + std::to_string(ranks) + "\n";
    const auto w = wl::read_workload_text(text, "fixed.toml");
    sim::Simulator simulator(system);
    (void)simulator.predict(w).time_by_op();
    if (system.total_gpus() >= 2) {
      wl::GenerateOptions o;
      o.mode = wl::Mode::decode;
      o.context = 256;
      o.parallel.tp = 2;
      o.layers = kHarnessLayers;
      o.max_kernels = 4000;
      sim::Simulator tp_simulator(system);
      (void)tp_simulator.predict(wl::generate(small_model(), o).workload).time_by_op();
    }
  } catch (const Error&) {
  }
  return 0;
}

int host_file(const std::uint8_t* data, std::size_t size) {
  static ScratchFile scratch("host.toml");
  try {
    const hw::HostSpec host = hw::HostCatalog(data_dir() / "hardware" / "catalog" / "hosts")
                                  .load(scratch.write(data, size).string());
    wl::GenerateOptions train;
    train.mode = wl::Mode::train;
    train.seq = 128;
    train.layers = kHarnessLayers;
    train.precision = wl::Precision::amp;
    train.clip_grad = true;
    train.max_kernels = 4000;
    sim::Simulator trainer(device::Device(reference_gpu()), host);
    (void)trainer.predict(wl::generate(small_model(), train).workload).time_by_op();
    wl::GenerateOptions decode;
    decode.mode = wl::Mode::decode;
    decode.context = 256;
    decode.layers = kHarnessLayers;
    decode.launch = wl::LaunchMode::graph;
    sim::Simulator decoder(device::Device(reference_gpu()), host);
    (void)decoder.predict(wl::generate(small_model(), decode).workload).time_by_op();
  } catch (const Error&) {
  }
  return 0;
}

int trace_import(const std::uint8_t* data, std::size_t size) {
  // A Kineto trace as text: parsed, its step chosen, linked, imported against the H100 and replayed.
  try {
    auto trace = trace::parse_kineto_trace(std::string(reinterpret_cast<const char*>(data), size), "fuzz.json");
    const auto window = trace::select_step(trace, "");
    const auto imported = trace::import_trace(trace, window, catalog().load("h100-sxm"), "fuzz");
    sim::Simulator simulator(catalog().load("h100-sxm"));
    (void)simulator.predict(imported.workload);
  } catch (const Error&) {
  }
  return 0;
}

}  // namespace gpucast::fuzz
