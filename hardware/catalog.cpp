#include "hardware/catalog.h"

#include <algorithm>
#include <set>

#include "hardware/description_reader.h"
#include "hardware/gpu_names.h"
#include "hardware/key_schema.h"
#include "common/suggest.h"
#include "common/limits.h"

namespace gpucast::hw {
namespace fs = std::filesystem;

namespace {

bool looks_like_path(const std::string& s) {
  return s.find('/') != std::string::npos || (s.size() > 5 && s.substr(s.size() - 5) == ".toml");
}

// A relative path without ".." components: a name in a file cannot reach outside its folder.
bool stays_inside(const std::string& target) {
  const fs::path p(target);
  if (target.empty() || p.is_absolute() || target.find('\0') != std::string::npos) return false;
  for (const auto& part : p)
    if (part == "..") return false;
  return true;
}

std::vector<std::string> stems_in(const fs::path& dir) {
  std::vector<std::string> out;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    if (!entry.is_regular_file() || entry.path().extension() != ".toml") continue;
    const std::string stem = entry.path().stem().string();
    if (!stem.empty() && stem[0] != '_') out.push_back(stem);
  }
  std::sort(out.begin(), out.end());
  return out;
}

double number(const FlatTable& values, const std::string& path) {
  return *scalar_as_number(values.at(path).value);
}
int integer(const FlatTable& values, const std::string& path) {
  return static_cast<int>(std::get<std::int64_t>(values.at(path).value));
}
std::string text(const FlatTable& values, const std::string& path) {
  auto it = values.find(path);
  return it == values.end() ? std::string{} : std::get<std::string>(it->second.value);
}
std::optional<double> maybe_number(const FlatTable& values, const std::string& path) {
  auto it = values.find(path);
  if (it == values.end()) return std::nullopt;
  return scalar_as_number(it->second.value);
}

CloudOffer build_cloud(const RawCloudOffer& raw) {
  CloudOffer offer;
  offer.provider = text(raw.values, "provider");
  offer.instance = text(raw.values, "instance");
  offer.gpus = integer(raw.values, "gpus");
  offer.usd_per_hour = number(raw.values, "usd_per_hour");
  offer.spot_usd_per_hour = maybe_number(raw.values, "spot_usd_per_hour");
  offer.region = text(raw.values, "region");
  offer.date = text(raw.values, "date");
  offer.source = text(raw.values, "source");
  return offer;
}

// Fills keys the GPU file leaves out from its architecture's defaults file, and derives the
// rates that defaults express per SM per clock.
void apply_architecture_defaults(const Catalog& catalog, const std::string& gpu_file, FlatTable& values,
                                 FlatTable& sources) {
  auto arch_it = values.find("architecture");
  if (arch_it == values.end())
    throw InputError(SourceLocation{gpu_file}, "architecture", "missing required key");
  const std::string arch = std::get<std::string>(arch_it->second.value);
  const fs::path arch_file = catalog.architectures_dir() / (arch + ".toml");
  if (!path_exists(arch_file))
    throw InputError(arch_it->second.where, "architecture",
                     "unknown architecture '" + arch + "'" + did_you_mean(arch, catalog.architectures()) +
                         "; defaults files live in " + catalog.architectures_dir().string());
  const RawDescription defaults = read_architecture_file(arch_file);
  // A default keeps the architecture file's source for it under its own key, so that a GPU file's
  // section source ("host = PCIe ...") does not claim a value the GPU file never gave.
  auto covering_source = [&](std::string prefix) -> const FlatValue* {
    while (true) {
      if (auto it = defaults.sources.find(prefix); it != defaults.sources.end()) return &it->second;
      const auto dot = prefix.rfind('.');
      if (dot == std::string::npos) return nullptr;
      prefix = prefix.substr(0, dot);
    }
  };
  for (const auto& [path, value] : defaults.values) {
    if (!find_gpu_key(path)) continue;  // per_sm.* are inputs to derived keys below
    if (values.count(path)) continue;
    values[path] = value;
    if (const FlatValue* source = covering_source(path); source && !sources.count(path)) sources[path] = *source;
  }
  for (const auto& [path, value] : defaults.sources)
    if (!sources.count(path)) sources[path] = value;

  auto derive = [&](const std::string& path, double v, const std::string& how) {
    if (values.count(path)) return;
    values[path] = FlatValue{v, SourceLocation{"derived: " + how}};
  };
  if (values.count("sm.boost_clock_mhz"))
    derive("sm.sustained_clock_mhz", number(values, "sm.boost_clock_mhz"), "sm.boost_clock_mhz");
  if (values.count("sm.count") && values.count("sm.sustained_clock_mhz")) {
    const double sm_ghz = integer(values, "sm.count") * number(values, "sm.sustained_clock_mhz") * 1e-3;
    derive("cache.l2_bandwidth_gbps", number(defaults.values, "per_sm.l2_bytes_per_clk") * sm_ghz,
           arch + " per_sm.l2_bytes_per_clk x sm.count x clock");
    derive("compute.sfu_tops", number(defaults.values, "per_sm.sfu_ops_per_clk") * sm_ghz * 1e-3,
           arch + " per_sm.sfu_ops_per_clk x sm.count x clock");
    const double clock_ghz = number(values, "sm.sustained_clock_mhz") * 1e-3;
    derive("memory.sm_bandwidth_gbps", number(defaults.values, "per_sm.dram_bytes_per_clk") * clock_ghz,
           arch + " per_sm.dram_bytes_per_clk x clock");
    derive("cache.sm_l2_bandwidth_gbps", number(defaults.values, "per_sm.l1_fill_bytes_per_clk") * clock_ghz,
           arch + " per_sm.l1_fill_bytes_per_clk x clock");
    if (values.count("latency.dram_cycles"))
      derive("latency.first_touch_us",
             number(defaults.values, "first_touch_dram_latencies") * number(values, "latency.dram_cycles") /
                 (clock_ghz * 1e3),
             arch + " first_touch_dram_latencies x latency.dram_cycles");
  }
}

}  // namespace

CloudOffer build_cloud_offer(const RawCloudOffer& raw) { return build_cloud(raw); }

Catalog::Catalog(fs::path hardware_dir) : hardware_dir_(std::move(hardware_dir)) {}

std::vector<std::string> Catalog::ids() const { return stems_in(catalog_dir()); }

std::vector<std::string> Catalog::architectures() const { return stems_in(architectures_dir()); }

fs::path Catalog::locate(const std::string& id_or_file) const {
  if (looks_like_path(id_or_file)) {
    if (is_file(id_or_file)) return fs::path(id_or_file);
    const fs::path under_hardware = hardware_dir_ / (id_or_file + ".toml");
    if (id_or_file.rfind("calibrated/", 0) == 0 && is_file(under_hardware)) return under_hardware;
    throw InputError(SourceLocation{id_or_file}, "", "no such hardware description file");
  }
  return catalog_dir() / (resolve(id_or_file) + ".toml");
}

AliasTable Catalog::aliases() const { return read_alias_table(catalog_dir() / "_aliases.toml"); }

std::string Catalog::resolve(const std::string& id_or_file) const {
  if (looks_like_path(id_or_file)) return id_or_file;
  const fs::path in_catalog = catalog_dir() / (id_or_file + ".toml");
  if (is_file(in_catalog)) return id_or_file;
  return resolve_gpu_name(id_or_file, ids(), aliases());
}

GpuSpec Catalog::load(const std::string& id_or_file, const std::vector<Override>& overrides) const {
  // Follow `extends` from the named file to its root, detecting cycles.
  std::vector<RawDescription> chain;
  std::vector<std::string> seen;
  fs::path current = locate(id_or_file);
  while (true) {
    const std::string canonical = fs::weakly_canonical(current).string();
    if (std::find(seen.begin(), seen.end(), canonical) != seen.end()) {
      std::string cycle;
      for (const auto& raw : chain) cycle += fs::path(raw.file).stem().string() + " -> ";
      cycle += current.stem().string();
      const auto& where = chain.back().values.at("extends").where;
      throw InputError(where, "extends", "cycle in extends: " + cycle);
    }
    seen.push_back(canonical);
    chain.push_back(read_gpu_file(current));
    auto ext = chain.back().values.find("extends");
    if (ext == chain.back().values.end()) break;
    const std::string target = std::get<std::string>(ext->second.value);
    if (!stays_inside(target))
      throw InputError(ext->second.where, "extends",
                       "'" + target + "' leaves its folder; name a catalog id or a .toml file in the same folder "
                       "(or below it)");
    try {
      if (looks_like_path(target) && fs::path(target).is_relative() &&
          is_file(current.parent_path() / target))
        current = current.parent_path() / target;
      else
        current = locate(target);
    } catch (const InputError& e) {
      throw InputError(ext->second.where, "extends", "cannot resolve '" + target + "': " + e.detail());
    }
  }

  // Merge base first; the named file wins.
  FlatTable values;
  FlatTable sources;
  std::vector<RawCloudOffer> cloud;
  for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
    for (const auto& [path, value] : it->values) values[path] = value;
    for (const auto& [path, value] : it->sources) sources[path] = value;
    if (it->cloud) cloud = *it->cloud;
  }
  values.erase("extends");
  for (const auto& o : overrides) values[o.path] = o.value;
  apply_architecture_defaults(*this, chain.front().file, values, sources);

  for (const auto& def : gpu_keys()) {
    if (def.required && !values.count(std::string(def.path)))
      throw InputError(SourceLocation{chain.front().file}, std::string(def.path),
                       "missing required key" +
                           (chain.size() > 1 ? std::string(" (not set here nor in the files it extends)") : ""));
  }

  // A tensor rate the architecture gives no efficiency for cannot be simulated: say which key.
  for (DataType t : tensor_dtypes()) {
    const std::string suffix(to_string(t));
    auto rate = values.find("compute.tensor_tflops." + suffix);
    if (rate != values.end() && !values.count("efficiency.tensor." + suffix))
      throw InputError(rate->second.where, "efficiency.tensor." + suffix,
                       "compute.tensor_tflops." + suffix + " is set but neither this file nor the " +
                           std::get<std::string>(values.at("architecture").value) +
                           " architecture defaults give efficiency.tensor." + suffix);
  }

  // The power limiter slows the clock under matrix work: its full-duty clock cannot exceed boost.
  if (auto limited = values.find("power.matrix_clock_mhz"); limited != values.end()) {
    const double boost = number(values, "sm.boost_clock_mhz");
    if (number(values, "power.matrix_clock_mhz") > boost)
      throw InputError(limited->second.where, "power.matrix_clock_mhz",
                       "must not exceed sm.boost_clock_mhz (" + std::to_string(int(boost)) +
                           " MHz): it is the clock the power limit holds under back-to-back matrix work");
  }

  std::vector<CloudOffer> offers;
  for (const auto& raw : cloud) offers.push_back(build_cloud(raw));
  const bool from_catalog = !looks_like_path(id_or_file);
  const std::string id = from_catalog ? resolve(id_or_file) : fs::path(id_or_file).stem().string();
  return build_spec(id, chain.front().file, values, offers, sources);
}

GpuSpec build_spec(const std::string& id, const std::string& origin, const FlatTable& values,
                   const std::vector<CloudOffer>& cloud, const FlatTable& sources) {
  GpuSpec s;
  s.id = id;
  s.origin = origin;
  s.name = text(values, "name");
  s.vendor = text(values, "vendor");
  s.architecture = text(values, "architecture");
  s.compute_capability = text(values, "compute_capability");

  s.sm.count = integer(values, "sm.count");
  s.sm.boost_clock_mhz = number(values, "sm.boost_clock_mhz");
  s.sm.sustained_clock_mhz = number(values, "sm.sustained_clock_mhz");
  s.sm.max_threads = integer(values, "sm.max_threads");
  s.sm.max_blocks = integer(values, "sm.max_blocks");
  s.sm.registers_kb = number(values, "sm.registers_kb");
  s.sm.shared_memory_kb = number(values, "sm.shared_memory_kb");
  s.sm.warp_size = integer(values, "sm.warp_size");
  s.sm.register_allocation_unit = integer(values, "sm.register_allocation_unit");
  s.sm.shared_memory_reserved_per_block_bytes = integer(values, "sm.shared_memory_reserved_per_block_bytes");
  s.sm.simt_lanes = integer(values, "sm.simt_lanes");
  s.compute.tensor_tile_rows = integer(values, "compute.tensor_tile_rows");
  s.cache.l2_reuse_fraction = number(values, "cache.l2_reuse_fraction");
  s.cache.l2_dirty_fraction = number(values, "cache.l2_dirty_fraction");

  s.compute.fp32_tflops = number(values, "compute.fp32_tflops");
  s.compute.fp64_tflops = number(values, "compute.fp64_tflops");
  s.compute.sfu_tops = number(values, "compute.sfu_tops");
  for (DataType t : tensor_dtypes()) {
    const std::string suffix(to_string(t));
    if (auto v = maybe_number(values, "compute.tensor_tflops." + suffix)) s.compute.tensor_tflops[t] = *v;
    if (auto v = maybe_number(values, "efficiency.tensor." + suffix)) s.efficiency.tensor[t] = *v;
  }

  s.memory.capacity_gb = number(values, "memory.capacity_gb");
  s.memory.type = text(values, "memory.type");
  s.memory.bus_width_bits = integer(values, "memory.bus_width_bits");
  s.memory.bandwidth_gbps = number(values, "memory.bandwidth_gbps");
  s.memory.sm_bandwidth_gbps = number(values, "memory.sm_bandwidth_gbps");

  s.cache.l2_mb = number(values, "cache.l2_mb");
  s.cache.l1_kb_per_sm = number(values, "cache.l1_kb_per_sm");
  s.cache.l2_bandwidth_gbps = number(values, "cache.l2_bandwidth_gbps");
  s.cache.sm_l2_bandwidth_gbps = number(values, "cache.sm_l2_bandwidth_gbps");
  s.cache.infinity_cache_mb = maybe_number(values, "cache.infinity_cache_mb").value_or(0);
  s.cache.infinity_cache_bandwidth_gbps = maybe_number(values, "cache.infinity_cache_bandwidth_gbps").value_or(0);

  s.latency.dram_cycles = number(values, "latency.dram_cycles");
  s.latency.l2_cycles = number(values, "latency.l2_cycles");
  s.latency.l1_cycles = number(values, "latency.l1_cycles");
  s.latency.shared_cycles = number(values, "latency.shared_cycles");
  s.latency.first_touch_us = number(values, "latency.first_touch_us");

  s.launch.kernel_us = number(values, "launch.kernel_us");
  s.launch.host_eager_us = number(values, "launch.host_eager_us");
  s.launch.host_library_us = number(values, "launch.host_library_us");
  s.launch.host_attention_decode_us = number(values, "launch.host_attention_decode_us");
  s.launch.graph_kernel_us = number(values, "launch.graph_kernel_us");
  s.launch.queued_kernel_us = number(values, "launch.queued_kernel_us");
  s.launch.blocks_per_us = number(values, "launch.blocks_per_us");
  s.pcie_gbps = number(values, "host.pcie_gbps");
  s.host_link = text(values, "host.link");
  s.host_transfer_latency_us = number(values, "host.transfer_latency_us");
  s.host_inline_copy_max_bytes = maybe_number(values, "host.inline_copy_max_bytes").value_or(0);
  s.nvlink_gbps = number(values, "interconnect.nvlink_gbps");

  s.power.tdp_w = number(values, "power.tdp_w");
  s.power.idle_w = maybe_number(values, "power.idle_w");
  s.power.matrix_clock_mhz = maybe_number(values, "power.matrix_clock_mhz");
  if (auto knee = maybe_number(values, "power.matrix_knee_share")) s.power.matrix_knee_share = *knee;
  s.price.usd = number(values, "price.usd");
  s.price.launch_usd = maybe_number(values, "price.launch_usd");
  s.price.kind = text(values, "price.kind");
  s.price.date = text(values, "price.date");
  s.price.note = text(values, "price.note");
  s.cloud = cloud;

  s.efficiency.dram_bandwidth = number(values, "efficiency.dram_bandwidth");
  s.efficiency.dram_write_stream = number(values, "efficiency.dram_write_stream");
  s.efficiency.copy_engine = number(values, "efficiency.copy_engine");
  s.efficiency.l2_bandwidth = number(values, "efficiency.l2_bandwidth");
  s.efficiency.fp32 = number(values, "efficiency.fp32");
  s.efficiency.fp64 = number(values, "efficiency.fp64");
  s.efficiency.sfu = number(values, "efficiency.sfu");
  s.efficiency.mma_sync = number(values, "efficiency.mma_sync");
  s.efficiency.pcie = number(values, "efficiency.pcie");
  s.efficiency.memory_parallelism = number(values, "efficiency.memory_parallelism");

  s.values = values;
  for (const auto& [path, value] : sources) s.sources[path] = std::get<std::string>(value.value);
  return s;
}

}  // namespace gpucast::hw
