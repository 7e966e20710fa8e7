#include "hardware/gpu_names.h"

#include <algorithm>
#include <cctype>
#include <optional>

#include "common/errors.h"
#include "common/suggest.h"
#include "common/toml_source.h"
#include "common/limits.h"

namespace gpucast::hw {
namespace {

std::string normalized(const std::string& name) {
  std::string out;
  for (char c : name) {
    const auto u = static_cast<unsigned char>(c);
    out += (c == ' ' || c == '_') ? '-' : static_cast<char>(std::tolower(u));
  }
  for (const char* prefix : {"nvidia-", "amd-", "geforce-", "instinct-"})
    if (out.rfind(prefix, 0) == 0) out = out.substr(std::string(prefix).size());
  return out;
}

std::vector<std::string> words(const std::string& id) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= id.size()) {
    const size_t dash = id.find('-', start);
    out.push_back(id.substr(start, dash == std::string::npos ? std::string::npos : dash - start));
    if (dash == std::string::npos) break;
    start = dash + 1;
  }
  return out;
}

// True when `needle`'s words appear in `id`'s words as one contiguous run.
bool holds_words(const std::string& id, const std::string& needle) {
  const auto hay = words(id);
  const auto want = words(needle);
  if (want.empty() || want.size() > hay.size()) return false;
  for (size_t i = 0; i + want.size() <= hay.size(); ++i)
    if (std::equal(want.begin(), want.end(), hay.begin() + static_cast<std::ptrdiff_t>(i))) return true;
  return false;
}

std::string joined(const std::vector<std::string>& ids) {
  std::string out;
  for (const auto& id : ids) out += (out.empty() ? "" : ", ") + id;
  return out;
}

}  // namespace

AliasTable read_alias_table(const std::filesystem::path& file) {
  AliasTable table;
  if (!path_exists(file)) return table;
  const toml::table root = parse_toml_file(file);
  const std::string where_file = file.string();
  for (auto&& [key, node] : root) {
    if (key.str() != "aliases")
      throw InputError(location_of(key, where_file), std::string(key.str()),
                       "unknown key (expected [aliases])");
    const auto* aliases = node.as_table();
    if (!aliases) throw InputError(location_of(node, where_file), "aliases", "expected a table");
    for (auto&& [alias, targets] : *aliases) {
      const std::string name = "aliases." + std::string(alias.str());
      const auto* array = targets.as_array();
      if (!array || array->empty())
        throw InputError(location_of(targets, where_file), name, "expected a non-empty array of catalog ids");
      std::vector<std::string> ids;
      for (const auto& element : *array) {
        const auto* id = element.as_string();
        if (!id) throw InputError(location_of(element, where_file), name, "expected catalog id strings");
        ids.push_back(id->get());
      }
      table[normalized(std::string(alias.str()))] = ids;
    }
  }
  return table;
}

std::vector<std::string> candidate_ids(const std::string& name, const std::vector<std::string>& ids,
                                       const AliasTable& aliases) {
  if (std::find(ids.begin(), ids.end(), name) != ids.end()) return {name};
  const std::string n = normalized(name);
  if (std::find(ids.begin(), ids.end(), n) != ids.end()) return {n};
  if (auto it = aliases.find(n); it != aliases.end()) {
    std::vector<std::string> out;
    for (const auto& id : it->second)
      if (std::find(ids.begin(), ids.end(), id) != ids.end()) out.push_back(id);
    if (!out.empty()) return out;
  }
  std::vector<std::string> out;
  const std::string bare = n.rfind("rtx-", 0) == 0 ? n.substr(4) : n;
  for (const auto& id : ids)
    if (holds_words(id, n) || holds_words(id, bare)) out.push_back(id);
  return out;
}

std::string resolve_gpu_name(const std::string& name, const std::vector<std::string>& ids,
                             const AliasTable& aliases) {
  const auto found = candidate_ids(name, ids, aliases);
  if (found.size() == 1) return found.front();
  if (found.size() > 1)
    throw InputError(SourceLocation{}, "",
                     "'" + name + "' names several GPUs: " + joined(found) + "; pick one");
  std::vector<std::string> names(ids);
  for (const auto& [alias, targets] : aliases) names.push_back(alias);
  // A name cut short ("h10", "mi3") most likely begins the one meant; otherwise prefer a close
  // match that starts with the same letter ("h10" is one edit from a10, h20 and h100).
  const std::string n = normalized(name);
  std::optional<std::string> match;
  for (const auto& candidate : names)
    if (candidate.size() > n.size() && candidate.rfind(n, 0) == 0 &&
        (!match || candidate.size() < match->size()))
      match = candidate;
  if (!match && !n.empty()) {
    std::vector<std::string> same_start;
    for (const auto& candidate : names)
      if (!candidate.empty() && candidate[0] == n[0]) same_start.push_back(candidate);
    match = closest_match(n, same_start);
  }
  if (!match) match = closest_match(n, names);
  std::string hint;
  if (match) {
    const auto means = candidate_ids(*match, ids, aliases);
    hint = " (did you mean '" + *match + "'" +
           (means.size() > 1 || (means.size() == 1 && means[0] != *match) ? " = " + joined(means)
                                                                          : std::string()) +
           "?)";
  }
  throw InputError(
      SourceLocation{}, "",
      "unknown GPU '" + name + "'" + hint + "; `gpucast hw list` shows the catalog, or pass a .toml path");
}

}  // namespace gpucast::hw
