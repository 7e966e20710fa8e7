#pragma once
// The names people type for a GPU, resolved to catalog ids: exact ids, the alias table
// (hardware/catalog/_aliases.toml: "h100" -> h100-sxm, h100-pcie), and ids of which the name is a
// run of dash-separated words ("4090" -> rtx-4090, "mi300" -> mi300x via the table). A name that
// fits several entries is an error listing them; one that fits none gets "did you mean".
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace gpucast::hw {

// alias (lower case) -> catalog ids, in the order the table lists them.
using AliasTable = std::map<std::string, std::vector<std::string>>;

// Reads `[aliases] name = ["id", ...]`; a missing file is an empty table. Throws InputError
// (file:line:key) on a malformed entry.
[[nodiscard]] AliasTable read_alias_table(const std::filesystem::path& file);

// Catalog ids `name` may mean, best first: the id itself; else the alias table's entry; else every
// id that holds `name` (case-insensitive, spaces as dashes) as a run of whole dash-separated words
// (an "rtx-" or "nvidia-"/"amd-" prefix on the name is dropped first).
[[nodiscard]] std::vector<std::string> candidate_ids(const std::string& name,
                                                     const std::vector<std::string>& ids,
                                                     const AliasTable& aliases);

// The one catalog id `name` means; throws InputError naming the choices when it is ambiguous and
// suggesting the closest id or alias when nothing fits.
[[nodiscard]] std::string resolve_gpu_name(const std::string& name, const std::vector<std::string>& ids,
                                           const AliasTable& aliases);

}  // namespace gpucast::hw
