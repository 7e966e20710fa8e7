#pragma once
// `--set key.path=value` overrides for what-if studies. Each override is checked against the schema:
// unknown paths and malformed values are InputErrors that name the flag.
#include <string>
#include <vector>

#include "common/toml_source.h"
#include "hardware/key_schema.h"

namespace gpucast::hw {

struct Override {
  std::string path;  // e.g. "memory.bandwidth_gbps"
  FlatValue value;   // typed per the schema; where = "--set path=value"
};

// Parses "key.path=value" (the text after --set).
[[nodiscard]] Override parse_override(const std::string& assignment);
[[nodiscard]] std::vector<Override> parse_overrides(const std::vector<std::string>& assignments);
// Builds an override from a path and a number (used by sweeps).
[[nodiscard]] Override make_override(const std::string& path, const std::string& value_text);

// Converts value_text to the kind `def` declares and checks its rule (any schema: GPU or system).
[[nodiscard]] Override convert_override(const KeyDef& def, const std::string& path, const std::string& value_text);

}  // namespace gpucast::hw
