#pragma once
// Finds host descriptions (hardware/catalog/hosts/<id>.toml, or a file path) and resolves them:
// the `extends` chain (base first), then --set host.KEY=VALUE overrides, then the required-key
// check. Errors name file:line:key like GPU files.
#include <filesystem>
#include <string>
#include <vector>

#include "hardware/host_spec.h"
#include "hardware/overrides.h"

namespace gpucast::hw {

// The host used when none is named.
inline constexpr const char* kDefaultHostId = "generic";

class HostCatalog {
 public:
  // `hosts_dir` is hardware/catalog/hosts.
  explicit HostCatalog(std::filesystem::path hosts_dir);
  [[nodiscard]] const std::filesystem::path& dir() const { return dir_; }
  [[nodiscard]] std::vector<std::string> ids() const;
  [[nodiscard]] std::filesystem::path locate(const std::string& id_or_file) const;
  // `overrides` paths are host keys without the "host." prefix.
  [[nodiscard]] HostSpec load(const std::string& id_or_file,
                              const std::vector<Override>& overrides = {}) const;

 private:
  std::filesystem::path dir_;
};

// Reads one host file (no `extends` resolution); checks every key.
struct RawHost {
  std::string file;
  FlatTable values;
  FlatTable sources;
};
[[nodiscard]] RawHost read_host_file(const std::filesystem::path& path);

// Splits --set assignments: "host.<host key>=v" become host overrides (prefix removed); the rest
// are returned for the GPU (host.pcie_gbps and host.transfer_latency_us stay GPU keys).
struct HostSplitOverrides {
  std::vector<std::string> gpu;
  std::vector<Override> host;
};
[[nodiscard]] HostSplitOverrides split_host_overrides(const std::vector<std::string>& assignments);

}  // namespace gpucast::hw
