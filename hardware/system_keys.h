#pragma once
// The system description format: every scalar key a system file may hold. Loading, --set, docs
// read this table, as key_schema.h does for GPU files.
#include <string>
#include <string_view>
#include <vector>

#include "hardware/key_schema.h"

namespace gpucast::hw {

[[nodiscard]] const std::vector<KeyDef>& system_keys();
[[nodiscard]] const KeyDef* find_system_key(std::string_view path);
[[nodiscard]] std::vector<std::string> system_key_names();
// Collective names that take per-collective nccl overrides.
[[nodiscard]] const std::vector<std::string>& nccl_collective_names();

}  // namespace gpucast::hw
