#pragma once
// Finds system descriptions (hardware/catalog/systems/<id>.toml or a file) and resolves them into
// a SystemSpec: `extends` chain (base first), --set overrides, defaults from
// catalog/systems/_defaults.toml for what is still missing, the required-key check, then the GPU
// the system names (loaded through the GPU catalog, with the GPU's own --set overrides).
#include <filesystem>
#include <string>
#include <vector>

#include "hardware/catalog.h"
#include "hardware/overrides.h"
#include "hardware/system_spec.h"

namespace gpucast::hw {

// --set assignments split by schema: system keys (fabric.*, nccl.*, gpus_per_node, ...) and GPU keys.
struct SplitOverrides {
  std::vector<Override> system;
  std::vector<Override> gpu;
};
[[nodiscard]] SplitOverrides split_overrides(const std::vector<std::string>& assignments);

class SystemCatalog {
 public:
  explicit SystemCatalog(const Catalog& gpus);

  [[nodiscard]] std::filesystem::path systems_dir() const { return gpus_.catalog_dir() / "systems"; }
  [[nodiscard]] std::vector<std::string> ids() const;
  // A system id, "calibrated/systems/<id>", or a path to a .toml file; throws InputError with a hint.
  [[nodiscard]] std::filesystem::path locate(const std::string& id_or_file) const;
  [[nodiscard]] SystemSpec load(const std::string& id_or_file, const SplitOverrides& overrides = {}) const;
  // "8xh100-sxm": one node of N catalog GPUs. Uses the single-node catalog system built on that GPU
  // (with gpus_per_node = N); without one, a PCIe node. Throws InputError for malformed text, a
  // count the node cannot hold, or an unknown GPU.
  [[nodiscard]] SystemSpec from_shorthand(const std::string& text, const SplitOverrides& overrides = {}) const;

 private:
  const Catalog& gpus_;
};

// Builds the typed spec from resolved values (gpu already loaded).
[[nodiscard]] SystemSpec build_system(const std::string& id, const std::string& origin, const FlatTable& values,
                                      const FlatTable& sources, GpuSpec gpu);

}  // namespace gpucast::hw
