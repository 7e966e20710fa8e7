#include "hardware/host_catalog.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>

#include "common/suggest.h"
#include "hardware/description_reader.h"
#include "common/limits.h"

namespace gpucast::hw {
namespace fs = std::filesystem;

namespace {

bool looks_like_path(const std::string& s) {
  return s.find('/') != std::string::npos || (s.size() > 5 && s.substr(s.size() - 5) == ".toml");
}

std::string trim(const std::string& s) {
  const auto begin = s.find_first_not_of(" \t");
  if (begin == std::string::npos) return {};
  const auto end = s.find_last_not_of(" \t");
  return s.substr(begin, end - begin + 1);
}

Override make_host_override(const std::string& path, const std::string& value_text) {
  const SourceLocation where{"--set host." + path + "=" + value_text};
  const KeyDef* def = find_host_key(path);
  if (!def)
    throw InputError(where, "host." + path, "unknown host key" + did_you_mean(path, host_key_names()));
  if (path == "extends")
    throw InputError(where, "host." + path, "cannot be overridden; write a host file instead");
  Override out{path, FlatValue{{}, where}};
  if (def->kind == ValueKind::string) {
    out.value.value = value_text;
    return out;
  }
  char* end = nullptr;
  errno = 0;
  const double v = std::strtod(value_text.c_str(), &end);
  if (value_text.empty() || *end != '\0' || errno != 0)
    throw InputError(where, "host." + path, "expected a number, found '" + value_text + "'");
  out.value.value = v;
  check_rule(*def, "host." + path, out.value);
  return out;
}

}  // namespace

HostCatalog::HostCatalog(fs::path hosts_dir) : dir_(std::move(hosts_dir)) {}

std::vector<std::string> HostCatalog::ids() const {
  std::vector<std::string> out;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir_, ec))
    if (entry.is_regular_file() && entry.path().extension() == ".toml")
      out.push_back(entry.path().stem().string());
  std::sort(out.begin(), out.end());
  return out;
}

fs::path HostCatalog::locate(const std::string& id_or_file) const {
  if (looks_like_path(id_or_file)) {
    if (is_file(id_or_file)) return fs::path(id_or_file);
    throw InputError(SourceLocation{id_or_file}, "", "no such host description file");
  }
  const fs::path in_catalog = dir_ / (id_or_file + ".toml");
  if (is_file(in_catalog)) return in_catalog;
  throw InputError(SourceLocation{"--host " + id_or_file}, "host",
                   "unknown host '" + id_or_file + "'" + did_you_mean(id_or_file, ids()) +
                       "; hosts live in " + dir_.string() + ", or pass a .toml path");
}

RawHost read_host_file(const fs::path& path) {
  const toml::table table = parse_toml_file(path);
  RawHost raw;
  raw.file = path.string();
  raw.values = read_keyed_table(table, host_keys(), {"sources"}, raw.file);
  if (const auto* node = table.get("sources")) raw.sources = read_sources_table(*node, raw.file);
  return raw;
}

HostSpec HostCatalog::load(const std::string& id_or_file, const std::vector<Override>& overrides) const {
  std::vector<RawHost> chain;
  std::vector<std::string> seen;
  fs::path current = locate(id_or_file);
  while (true) {
    const std::string canonical = fs::weakly_canonical(current).string();
    if (std::find(seen.begin(), seen.end(), canonical) != seen.end()) {
      std::string cycle;
      for (const auto& raw : chain) cycle += fs::path(raw.file).stem().string() + " -> ";
      cycle += current.stem().string();
      throw InputError(chain.back().values.at("extends").where, "extends", "cycle in extends: " + cycle);
    }
    seen.push_back(canonical);
    chain.push_back(read_host_file(current));
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
  FlatTable values;
  FlatTable sources;
  for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
    for (const auto& [path, value] : it->values) values[path] = value;
    for (const auto& [path, value] : it->sources) sources[path] = value;
  }
  values.erase("extends");
  for (const auto& o : overrides) values[o.path] = o.value;
  for (const auto& def : host_keys())
    if (def.required && !values.count(std::string(def.path)))
      throw InputError(
          SourceLocation{chain.front().file}, std::string(def.path),
          "missing required key" +
              (chain.size() > 1 ? std::string(" (not set here nor in the files it extends)") : ""));
  const std::string id = looks_like_path(id_or_file) ? fs::path(id_or_file).stem().string() : id_or_file;
  return build_host_spec(id, chain.front().file, values, sources);
}

HostSplitOverrides split_host_overrides(const std::vector<std::string>& assignments) {
  HostSplitOverrides out;
  for (const auto& a : assignments) {
    const auto eq = a.find('=');
    const std::string path = trim(a.substr(0, eq));
    if (eq != std::string::npos && path.rfind("host.", 0) == 0) {
      const std::string rest = path.substr(5);
      // host.pcie_gbps and host.transfer_latency_us describe the GPU's host link.
      if (!find_gpu_key(path)) {
        out.host.push_back(make_host_override(rest, trim(a.substr(eq + 1))));
        continue;
      }
    }
    out.gpu.push_back(a);
  }
  return out;
}

}  // namespace gpucast::hw
