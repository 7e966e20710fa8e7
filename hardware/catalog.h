#pragma once
// Finds GPU descriptions by catalog id or file path and resolves them into a GpuSpec:
// `extends` chain (base first), then --set overrides, then architecture defaults for what is
// still missing, then the required-key check.
#include <filesystem>
#include <string>
#include <vector>

#include "hardware/description_reader.h"
#include "hardware/gpu_names.h"
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

  // A catalog id, an alias or a name people type ("h200", "4090"; hardware/gpu_names.h),
  // "calibrated/<id>", or a path to a .toml file; throws InputError with a hint.
  [[nodiscard]] std::filesystem::path locate(const std::string& id_or_file) const;
  // The catalog id a typed name means (paths are returned unchanged); throws InputError when it
  // is unknown or names several GPUs. The one place GPU names are resolved.
  [[nodiscard]] std::string resolve(const std::string& id_or_file) const;
  // catalog/_aliases.toml.
  [[nodiscard]] AliasTable aliases() const;

  [[nodiscard]] GpuSpec load(const std::string& id_or_file, const std::vector<Override>& overrides = {}) const;

 private:
  std::filesystem::path hardware_dir_;
};

// One [[cloud]] entry as read (every required key present) -> its typed offer.
[[nodiscard]] CloudOffer build_cloud_offer(const RawCloudOffer& raw);

// Builds the typed spec from fully resolved flat values (every required key present).
[[nodiscard]] GpuSpec build_spec(const std::string& id, const std::string& origin, const FlatTable& values,
                                 const std::vector<CloudOffer>& cloud, const FlatTable& sources);

}  // namespace gpucast::hw
