#pragma once
// Finds GPU descriptions by catalog id or file path and resolves them into a GpuSpec:
// `extends` chain (base first), then --set overrides, then architecture defaults for what is
// still missing, then the required-key check.
#include <filesystem>
#include <string>
#include <vector>

#include "hardware/gpu_spec.h"
#include "hardware/overrides.h"

namespace gpucast::hw {

class Catalog {
 public:
  // `hardware_dir` holds catalog/, catalog/architectures/ and calibrated/.
  explicit Catalog(std::filesystem::path hardware_dir);

  [[nodiscard]] const std::filesystem::path& hardware_dir() const { return hardware_dir_; }
  [[nodiscard]] std::filesystem::path catalog_dir() const { return hardware_dir_ / "catalog"; }
  [[nodiscard]] std::filesystem::path architectures_dir() const { return catalog_dir() / "architectures"; }

  // Catalog ids (file stems under catalog/), sorted.
  [[nodiscard]] std::vector<std::string> ids() const;
  // Architecture names that have a defaults file, sorted.
  [[nodiscard]] std::vector<std::string> architectures() const;

  // A catalog id, "calibrated/<id>", or a path to a .toml file; throws InputError with a hint.
  [[nodiscard]] std::filesystem::path locate(const std::string& id_or_file) const;

  [[nodiscard]] GpuSpec load(const std::string& id_or_file, const std::vector<Override>& overrides = {}) const;

 private:
  std::filesystem::path hardware_dir_;
};

// Builds the typed spec from fully resolved flat values (every required key present).
[[nodiscard]] GpuSpec build_spec(const std::string& id, const std::string& origin, const FlatTable& values,
                                 const std::vector<CloudOffer>& cloud, const FlatTable& sources);

}  // namespace gpucast::hw
