#include "hardware/system_catalog.h"

#include <algorithm>
#include <cctype>

#include "common/limits.h"
#include "common/suggest.h"
#include "hardware/description_reader.h"
#include "hardware/system_keys.h"

namespace gpucast::hw {
namespace fs = std::filesystem;

namespace {

bool looks_like_path(const std::string& s) {
  return s.find('/') != std::string::npos || (s.size() > 5 && s.substr(s.size() - 5) == ".toml");
}

struct RawSystem {
  std::string file;
  FlatTable values;
  FlatTable sources;
};

RawSystem read_system_file(const fs::path& path) {
  const toml::table table = parse_toml_file(path);
  RawSystem raw;
  raw.file = path.string();
  raw.values = read_keyed_table(table, system_keys(), {"sources"}, raw.file);
  if (const auto* node = table.get("sources")) raw.sources = read_sources_table(*node, raw.file);
  return raw;
}

double number(const FlatTable& v, const std::string& path) {
  return *scalar_as_number(v.at(path).value);
}
int integer(const FlatTable& v, const std::string& path) {
  return static_cast<int>(std::get<std::int64_t>(v.at(path).value));
}
std::string text(const FlatTable& v, const std::string& path) {
  auto it = v.find(path);
  return it == v.end() ? std::string{} : std::get<std::string>(it->second.value);
}

FabricKind parse_fabric(const FlatValue& value) {
  const std::string kind = std::get<std::string>(value.value);
  if (kind == "nvswitch") return FabricKind::nvswitch;
  if (kind == "mesh") return FabricKind::mesh;
  if (kind == "pcie") return FabricKind::pcie;
  throw InputError(value.where, "fabric.kind",
                   "unknown fabric '" + kind + "'" + did_you_mean(kind, {"nvswitch", "mesh", "pcie"}) +
                       "; one of nvswitch, mesh, pcie");
}

}  // namespace

std::string_view fabric_kind_name(FabricKind kind) {
  switch (kind) {
    case FabricKind::mesh:
      return "mesh";
    case FabricKind::pcie:
      return "pcie";
    default:
      return "nvswitch";
  }
}

double NcclSpec::bus_efficiency_of(const std::string& collective) const {
  auto it = bus_efficiency_for.find(collective);
  return it == bus_efficiency_for.end() ? bus_efficiency : it->second;
}
double NcclSpec::base_latency_of(const std::string& collective) const {
  auto it = base_latency_us_for.find(collective);
  return it == base_latency_us_for.end() ? base_latency_us : it->second;
}
double NcclSpec::gpu_latency_of(const std::string& collective) const {
  auto it = gpu_latency_us_for.find(collective);
  return it == gpu_latency_us_for.end() ? gpu_latency_us : it->second;
}
double NcclSpec::ramp_bytes_of(const std::string& collective) const {
  auto it = ramp_bytes_for.find(collective);
  return it == ramp_bytes_for.end() ? ramp_bytes : it->second;
}

SplitOverrides split_overrides(const std::vector<std::string>& assignments) {
  SplitOverrides out;
  for (const auto& a : assignments) {
    const auto eq = a.find('=');
    if (eq != std::string::npos) {
      std::string path = a.substr(0, eq);
      path.erase(0, path.find_first_not_of(" \t"));
      path.erase(path.find_last_not_of(" \t") + 1);
      if (const KeyDef* def = find_system_key(path)) {
        std::string value = a.substr(eq + 1);
        value.erase(0, value.find_first_not_of(" \t"));
        value.erase(value.find_last_not_of(" \t") + 1);
        if (path == "extends")
          throw InputError(SourceLocation{"--set " + a}, path,
                           "cannot be overridden; write a system file instead");
        out.system.push_back(convert_override(*def, path, value));
        continue;
      }
    }
    out.gpu.push_back(parse_override(a));
  }
  return out;
}

SystemCatalog::SystemCatalog(const Catalog& gpus) : gpus_(gpus) {}

std::vector<std::string> SystemCatalog::ids() const {
  std::vector<std::string> out;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(systems_dir(), ec)) {
    if (!entry.is_regular_file() || entry.path().extension() != ".toml") continue;
    const std::string stem = entry.path().stem().string();
    if (!stem.empty() && stem[0] != '_') out.push_back(stem);
  }
  std::sort(out.begin(), out.end());
  return out;
}

fs::path SystemCatalog::locate(const std::string& id_or_file) const {
  if (looks_like_path(id_or_file)) {
    if (is_file(id_or_file)) return fs::path(id_or_file);
    const fs::path under_hardware = gpus_.hardware_dir() / (id_or_file + ".toml");
    if (id_or_file.rfind("calibrated/", 0) == 0 && is_file(under_hardware)) return under_hardware;
    throw InputError(SourceLocation{id_or_file}, "", "no such system description file");
  }
  const fs::path in_catalog = systems_dir() / (id_or_file + ".toml");
  if (is_file(in_catalog)) return in_catalog;
  throw InputError(SourceLocation{}, "--system",
                   "unknown system '" + id_or_file + "'" + did_you_mean(id_or_file, ids()) +
                       "; `gpucast hw systems` lists them, or pass a .toml path, or --gpus NxGPU");
}

SystemSpec SystemCatalog::load(const std::string& id_or_file, const SplitOverrides& overrides) const {
  std::vector<RawSystem> chain;
  std::vector<std::string> seen;
  fs::path current = locate(id_or_file);
  while (true) {
    const std::string canonical = fs::weakly_canonical(current).string();
    if (std::find(seen.begin(), seen.end(), canonical) != seen.end())
      throw InputError(chain.back().values.at("extends").where, "extends",
                       "cycle in extends at " + current.stem().string());
    seen.push_back(canonical);
    chain.push_back(read_system_file(current));
    auto ext = chain.back().values.find("extends");
    if (ext == chain.back().values.end()) break;
    const std::string target = std::get<std::string>(ext->second.value);
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
  FlatTable values, sources;
  std::string gpu_base_dir;  // a relative `gpu` path is relative to the file that set it
  for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
    for (const auto& [path, value] : it->values) values[path] = value;
    for (const auto& [path, value] : it->sources) sources[path] = value;
    if (it->values.count("gpu")) gpu_base_dir = fs::path(it->file).parent_path().string();
  }
  values.erase("extends");
  for (const auto& o : overrides.system) {
    values[o.path] = o.value;
    if (o.path == "gpu") gpu_base_dir.clear();
  }
  // Defaults for what the chain leaves out.
  const fs::path defaults_file = systems_dir() / "_defaults.toml";
  if (is_file(defaults_file)) {
    const RawSystem defaults = read_system_file(defaults_file);
    for (const auto& [path, value] : defaults.values)
      if (!values.count(path)) values[path] = value;
    for (const auto& [path, value] : defaults.sources)
      if (!sources.count(path)) sources[path] = value;
  }
  for (const auto& def : system_keys())
    if (def.required && !values.count(std::string(def.path)))
      throw InputError(
          SourceLocation{chain.front().file}, std::string(def.path),
          "missing required key" +
              (chain.size() > 1 ? std::string(" (not set here nor in the files it extends)") : ""));

  const FlatValue& gpu_value = values.at("gpu");
  std::string gpu_ref = std::get<std::string>(gpu_value.value);
  if (looks_like_path(gpu_ref) && fs::path(gpu_ref).is_relative() && !gpu_base_dir.empty() &&
      is_file(fs::path(gpu_base_dir) / gpu_ref))
    gpu_ref = (fs::path(gpu_base_dir) / gpu_ref).string();
  GpuSpec gpu;
  try {
    gpu = gpus_.load(gpu_ref, overrides.gpu);
  } catch (const InputError& e) {
    if (e.where().has_position()) throw;  // an error inside the GPU file names its own line
    throw InputError(gpu_value.where, "gpu", e.detail());
  }
  const std::string id = looks_like_path(id_or_file) ? fs::path(id_or_file).stem().string() : id_or_file;
  return build_system(id, chain.front().file, values, sources, std::move(gpu));
}

SystemSpec build_system(const std::string& id, const std::string& origin, const FlatTable& values,
                        const FlatTable& sources, GpuSpec gpu) {
  SystemSpec s;
  s.id = id;
  s.origin = origin;
  s.name = text(values, "name");
  s.gpu = std::move(gpu);
  s.nodes = values.count("nodes") ? integer(values, "nodes") : 1;
  s.gpus_per_node = integer(values, "gpus_per_node");
  if (values.count("price_usd")) s.price_usd = number(values, "price_usd");
  s.fabric.kind = parse_fabric(values.at("fabric.kind"));
  s.fabric.generation = text(values, "fabric.generation");
  s.fabric.bandwidth_gbps = number(values, "fabric.bandwidth_gbps");
  s.fabric.domain_gpus =
      values.count("fabric.domain_gpus") ? integer(values, "fabric.domain_gpus") : s.gpus_per_node;
  if (values.count("fabric.nvls")) {
    const int nvls = integer(values, "fabric.nvls");
    if (nvls > 1) throw InputError(values.at("fabric.nvls").where, "fabric.nvls", "expected 0 or 1");
    s.fabric.nvls = nvls == 1;
  }
  if (s.fabric.nvls && s.fabric.kind != FabricKind::nvswitch)
    throw InputError(values.at("fabric.nvls").where, "fabric.nvls", "NVLS needs fabric.kind = \"nvswitch\"");
  if (s.fabric.domain_gpus < s.gpus_per_node)
    throw InputError(values.at("fabric.domain_gpus").where, "fabric.domain_gpus",
                     "smaller than gpus_per_node (" + std::to_string(s.gpus_per_node) + ")");
  if (s.fabric.domain_gpus > s.total_gpus())
    throw InputError(values.count("fabric.domain_gpus") ? values.at("fabric.domain_gpus").where
                                                        : values.at("gpus_per_node").where,
                     "fabric.domain_gpus",
                     "more GPUs than the system has (" + std::to_string(s.total_gpus()) + ")");
  s.network.kind = text(values, "network.kind");
  s.network.nics_per_node =
      values.count("network.nics_per_node") ? integer(values, "network.nics_per_node") : 0;
  s.network.nic_gbits = values.count("network.nic_gbits") ? number(values, "network.nic_gbits") : 0;
  s.network.latency_us = values.count("network.latency_us") ? number(values, "network.latency_us") : 0;
  s.network.efficiency = values.count("network.efficiency") ? number(values, "network.efficiency") : 1;
  if (s.nodes > 1 && s.fabric.domain_gpus < s.total_gpus() &&
      (s.network.nics_per_node == 0 || s.network.nic_gbits <= 0))
    throw InputError(
        values.count("nodes") ? values.at("nodes").where : SourceLocation{origin}, "network.nics_per_node",
        "the system has " + std::to_string(s.nodes) +
            " nodes but no network between them (set network.nics_per_node and network.nic_gbits)");
  s.host_link.kind = text(values, "host_link.kind");
  if (values.count("host_link.bandwidth_gbps"))
    s.host_link.bandwidth_gbps = number(values, "host_link.bandwidth_gbps");
  else
    s.host_link.bandwidth_gbps = s.gpu.pcie_gbps;

  s.nccl.base_latency_us = number(values, "nccl.base_latency_us");
  s.nccl.step_latency_us = number(values, "nccl.step_latency_us");
  s.nccl.bus_efficiency = number(values, "nccl.bus_efficiency");
  s.nccl.nvls_efficiency = number(values, "nccl.nvls_efficiency");
  s.nccl.ramp_bytes = number(values, "nccl.ramp_bytes");
  s.nccl.ramp_exponent = number(values, "nccl.ramp_exponent");
  s.nccl.channels = integer(values, "nccl.channels");
  if (values.count("nccl.gpu_latency_us")) s.nccl.gpu_latency_us = number(values, "nccl.gpu_latency_us");
  if (values.count("nccl.program_host_us")) s.nccl.program_host_us = number(values, "nccl.program_host_us");
  if (values.count("nccl.rank_host_spread"))
    s.nccl.rank_host_spread = number(values, "nccl.rank_host_spread");
  if (values.count("nccl.minor_version")) s.nccl.minor_version = integer(values, "nccl.minor_version");
  if (values.count("nccl.protocols")) {
    const int protocols = integer(values, "nccl.protocols");
    if (protocols > 1)
      throw InputError(values.at("nccl.protocols").where, "nccl.protocols", "expected 0 or 1");
    s.nccl.protocols = protocols == 1;
  }
  if (s.nccl.channels > s.gpu.sm.count)
    throw InputError(values.at("nccl.channels").where, "nccl.channels",
                     "more channels than the GPU has SMs (" + std::to_string(s.gpu.sm.count) + ")");
  for (const auto& c : nccl_collective_names()) {
    if (values.count("nccl." + c + ".bus_efficiency"))
      s.nccl.bus_efficiency_for[c] = number(values, "nccl." + c + ".bus_efficiency");
    if (values.count("nccl." + c + ".base_latency_us"))
      s.nccl.base_latency_us_for[c] = number(values, "nccl." + c + ".base_latency_us");
    if (values.count("nccl." + c + ".gpu_latency_us"))
      s.nccl.gpu_latency_us_for[c] = number(values, "nccl." + c + ".gpu_latency_us");
    if (values.count("nccl." + c + ".ramp_bytes"))
      s.nccl.ramp_bytes_for[c] = number(values, "nccl." + c + ".ramp_bytes");
  }
  s.values = values;
  for (const auto& [path, value] : sources) s.sources[path] = std::get<std::string>(value.value);
  return s;
}

SystemSpec SystemCatalog::from_shorthand(const std::string& text_in, const SplitOverrides& overrides) const {
  const SourceLocation where{"--gpus " + text_in};
  const auto x = text_in.find_first_of("xX");
  long count = 0;
  bool digits = x != std::string::npos && x > 0;
  for (size_t i = 0; digits && i < x; ++i) digits = std::isdigit(static_cast<unsigned char>(text_in[i])) != 0;
  if (digits) count = std::stol(text_in.substr(0, x));
  if (!digits || count < 1 || count > 100000 || x + 1 >= text_in.size())
    throw InputError(where, "--gpus", "expected N x a catalog GPU id, e.g. 8xh100-sxm");
  const std::string gpu_id = text_in.substr(x + 1);
  (void)gpus_.locate(gpu_id);  // unknown GPU: the GPU catalog's message with did-you-mean

  // The single-node catalog system built on this GPU (the largest node first).
  std::string best;
  int best_gpus = 0;
  for (const auto& id : ids()) {
    try {
      const SystemSpec candidate = load(id);
      if (candidate.gpu.id != gpu_id || candidate.nodes != 1) continue;
      if (candidate.gpus_per_node > best_gpus) {
        best = id;
        best_gpus = candidate.gpus_per_node;
      }
    } catch (const InputError&) {
      continue;  // a system whose GPU the catalog lacks
    }
  }
  SplitOverrides all = overrides;
  auto set = [&](const std::string& path, const std::string& value) {
    all.system.insert(all.system.begin(), convert_override(*find_system_key(path), path, value));
    all.system.front().value.where = where;
  };
  if (!best.empty()) {
    if (count > best_gpus)
      throw InputError(where, "--gpus",
                       std::to_string(count) + " GPUs: more GPUs than one " + best + " node has (" +
                           std::to_string(best_gpus) + "); use --system with a multi-node system");
    set("gpus_per_node", std::to_string(count));
    set("fabric.domain_gpus", std::to_string(count));
    SystemSpec s = load(best, all);
    s.id = std::to_string(count) + "x" + gpu_id;
    s.name = std::to_string(count) + "x " + s.gpu.name + " (" + best + " node)";
    return s;
  }
  // No catalog system for this GPU: a PCIe node of `count` GPUs.
  const GpuSpec gpu = gpus_.load(gpu_id, overrides.gpu);
  const double pcie_gbps = gpu.pcie_gbps * gpu.efficiency.pcie;
  FlatTable values;
  auto put = [&](const std::string& path, Scalar v) { values[path] = FlatValue{std::move(v), where}; };
  put("name", std::to_string(count) + "x " + gpu.name + " (PCIe node)");
  put("gpu", gpu_id);
  put("gpus_per_node", std::int64_t{count});
  put("fabric.kind", std::string("pcie"));
  put("fabric.bandwidth_gbps", pcie_gbps);
  FlatTable sources;
  sources["fabric"] = FlatValue{std::string("assumption: no catalog system for this GPU; PCIe at the GPU's "
                                            "host.pcie_gbps x efficiency.pcie"),
                                where};
  const fs::path defaults_file = systems_dir() / "_defaults.toml";
  if (is_file(defaults_file)) {
    const RawSystem defaults = read_system_file(defaults_file);
    for (const auto& [path, value] : defaults.values)
      if (!values.count(path)) values[path] = value;
    for (const auto& [path, value] : defaults.sources)
      if (!sources.count(path)) sources[path] = value;
  }
  for (const auto& o : overrides.system) values[o.path] = o.value;
  for (const auto& def : system_keys())
    if (def.required && !values.count(std::string(def.path)))
      throw InputError(where, std::string(def.path), "missing required key (no defaults file)");
  return build_system(std::to_string(count) + "x" + gpu_id, "--gpus " + text_in, values, sources, gpu);
}

}  // namespace gpucast::hw
