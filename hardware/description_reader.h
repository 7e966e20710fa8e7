#pragma once
// Reads one hardware TOML file (a GPU or an architecture defaults file) into checked flat values,
// without resolving `extends`. Every unknown key, wrong type or broken rule is an InputError that
// names file:line:column and the key.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "hardware/gpu_spec.h"
#include "hardware/key_schema.h"
#include "common/toml_source.h"

namespace gpucast::hw {

struct RawCloudOffer {
  FlatTable values;
  SourceLocation where;
};

struct RawDescription {
  std::string file;
  FlatTable values;                                 // scalar keys of gpu_keys()
  std::optional<std::vector<RawCloudOffer>> cloud;  // nullopt: the file has no [[cloud]] (inherit)
  FlatTable sources;                                // sources.<anything> = "text"
};

// Reads a GPU description file. Scalars are checked against gpu_keys() (kind and rule).
[[nodiscard]] RawDescription read_gpu_file(const std::filesystem::path& path);
[[nodiscard]] RawDescription read_gpu_table(const toml::table& table, const std::string& file);

// Reads an array of [[cloud]] tables (cloud_keys()); `cloud = []` is an empty list.
[[nodiscard]] std::vector<RawCloudOffer> read_cloud_offers(const toml::node& node, const std::string& file);

// Reads an architecture defaults file (architecture_keys()).
[[nodiscard]] RawDescription read_architecture_file(const std::filesystem::path& path);

// Reads any keyed table (a system file, say) against `keys`: nested tables flatten to dotted paths;
// top-level names in `special` are skipped; unknown keys and broken rules throw InputError.
[[nodiscard]] FlatTable read_keyed_table(const toml::table& table, const std::vector<KeyDef>& keys,
                                         const std::vector<std::string>& special, const std::string& file);
// Reads a `sources` table (nested or dotted key = "text" entries).
[[nodiscard]] FlatTable read_sources_table(const toml::node& node, const std::string& file);

// Converts a TOML node to the scalar `def` expects and checks its rule; throws InputError otherwise.
[[nodiscard]] FlatValue convert_value(const KeyDef& def, const toml::node& node, const std::string& full_path,
                                      const std::string& file);
// Checks `value` against `def.rule`; throws InputError at value.where.
void check_rule(const KeyDef& def, const std::string& full_path, const FlatValue& value);

}  // namespace gpucast::hw
