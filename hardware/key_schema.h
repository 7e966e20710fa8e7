#pragma once
// The hardware description format: every scalar key a GPU file may hold, its type, unit and rule.
// Loading, --set overrides, `hw show`, sweeps and the docs all read this one table.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace gpucast::hw {

enum class ValueKind { integer, number, string };
enum class Rule {
  none,          // any value of the right kind
  positive,      // > 0
  non_negative,  // >= 0
  fraction,      // in (0, 1]
};

struct KeyDef {
  std::string_view path;         // dotted TOML key path, e.g. "memory.bandwidth_gbps"
  ValueKind kind;
  std::string_view unit;         // human unit for tables, "" when dimensionless or textual
  bool required;                 // must be present after `extends` and architecture defaults
  Rule rule;
  std::string_view description;  // one line for docs and `hw show`
  // Accepted range, filled from the unit by range_for_unit(): numbers must be finite and within
  // [min, max]; strings at most max_length bytes.
  double min = 0;
  double max = 0;
  std::size_t max_length = 0;
};

struct UnitRange {
  std::string_view unit;
  double min;  // for Rule::positive; Rule::non_negative keys start at 0
  double max;
};
// The range of every unit the schema uses, in documentation order (docs/hardware-format.md).
[[nodiscard]] const std::vector<UnitRange>& unit_ranges();
// The keys with each number's range filled from its unit and rule (strings get a length limit):
// every description table (GPU, architecture, cloud, host, system) passes through this.
[[nodiscard]] std::vector<KeyDef> with_ranges(std::vector<KeyDef> keys);
// "in [1, 10000] SMs" style text for a key.
[[nodiscard]] std::string range_text(const KeyDef& def);

// All scalar keys of a GPU description, in documentation order. Arrays of tables (`cloud`) and the
// free-form `sources` table are handled by the reader, not listed here.
[[nodiscard]] const std::vector<KeyDef>& gpu_keys();
[[nodiscard]] const KeyDef* find_gpu_key(std::string_view path);
// Every key path and every section name ("sm", "compute.tensor_tflops"), for "did you mean".
[[nodiscard]] std::vector<std::string> gpu_key_names();
// True when `path` names a section that holds schema keys (e.g. "compute" or "efficiency.tensor").
[[nodiscard]] bool is_gpu_section(std::string_view path);

// Keys of one `[[cloud]]` entry.
[[nodiscard]] const std::vector<KeyDef>& cloud_keys();

// Keys an architecture defaults file (hardware/catalog/architectures/<arch>.toml) may hold.
[[nodiscard]] const std::vector<KeyDef>& architecture_keys();

[[nodiscard]] std::string_view rule_text(Rule rule);

}  // namespace gpucast::hw
