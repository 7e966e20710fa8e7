#include "hardware/description_reader.h"

#include <algorithm>
#include <cmath>

#include "common/limits.h"
#include "common/suggest.h"

namespace gpucast::hw {
namespace {

// Bounds on the free-form [sources] table.
constexpr size_t kMaxSources = 10000;
constexpr size_t kMaxSourceText = 65536;


const KeyDef* find_in(const std::vector<KeyDef>& keys, std::string_view path) {
  for (const auto& key : keys)
    if (key.path == path) return &key;
  return nullptr;
}

bool is_section_of(const std::vector<KeyDef>& keys, std::string_view path) {
  for (const auto& key : keys)
    if (key.path.size() > path.size() && key.path.substr(0, path.size()) == path && key.path[path.size()] == '.')
      return true;
  return false;
}

std::vector<std::string> names_of(const std::vector<KeyDef>& keys, const std::vector<std::string>& extra) {
  std::vector<std::string> names(extra);
  for (const auto& key : keys) {
    names.emplace_back(key.path);
    std::string_view path = key.path;
    for (size_t dot = path.find('.'); dot != std::string_view::npos; dot = path.find('.', dot + 1))
      names.emplace_back(path.substr(0, dot));
    // The last component alone helps when the section is right and the leaf is misspelled.
  }
  return names;
}

// Suggest within the same section first ("sm.cout" -> "sm.count"), then over all names.
std::string suggestion(const std::string& path, const std::vector<KeyDef>& keys,
                       const std::vector<std::string>& extra) {
  const auto names = names_of(keys, extra);
  return did_you_mean(path, names);
}

[[noreturn]] void unknown_key(const std::string& path, const SourceLocation& where, const std::vector<KeyDef>& keys,
                              const std::vector<std::string>& extra) {
  throw InputError(where, path, "unknown key" + suggestion(path, keys, extra));
}

// Walks a table and stores each scalar under its dotted path. `special` top-level names are skipped.
void walk(const toml::table& table, const std::string& prefix, const std::vector<KeyDef>& keys,
          const std::vector<std::string>& special, const std::string& file, FlatTable& out) {
  for (auto&& [key, node] : table) {
    const std::string name(key.str());
    const std::string path = prefix.empty() ? name : prefix + "." + name;
    if (prefix.empty() && std::find(special.begin(), special.end(), name) != special.end()) continue;
    const SourceLocation where = location_of(key, file);
    if (const auto* sub = node.as_table()) {
      if (!is_section_of(keys, path)) {
        if (find_in(keys, path))
          throw InputError(where, path, "expected a single value, found a table");
        unknown_key(path, where, keys, special);
      }
      walk(*sub, path, keys, special, file, out);
      continue;
    }
    const KeyDef* def = find_in(keys, path);
    if (!def) {
      if (is_section_of(keys, path))
        throw InputError(where, path, "is a section: expected a table such as [" + path + "]");
      unknown_key(path, where, keys, special);
    }
    out[path] = convert_value(*def, node, path, file);
  }
}

FlatTable read_sources(const toml::node& node, const std::string& file) {
  FlatTable out;
  const auto* table = node.as_table();
  if (!table) throw InputError(location_of(node, file), "sources", "expected a table of key = \"source\" entries");
  // Sources may be nested ([sources.compute] tensor_tflops = "...") or dotted keys; flatten both.
  std::vector<std::pair<std::string, const toml::table*>> stack{{"", table}};
  while (!stack.empty()) {
    auto [prefix, current] = stack.back();
    stack.pop_back();
    for (auto&& [key, value] : *current) {
      const std::string path = prefix.empty() ? std::string(key.str()) : prefix + "." + std::string(key.str());
      if (const auto* sub = value.as_table()) {
        stack.emplace_back(path, sub);
      } else if (const auto* text = value.as_string()) {
        if (out.size() >= kMaxSources)
          throw InputError(location_of(key, file), "sources." + path,
                           "more than " + std::to_string(kMaxSources) + " [sources] entries");
        if (text->get().size() > kMaxSourceText)
          throw InputError(location_of(value, file), "sources." + path,
                           "source text is longer than " + std::to_string(kMaxSourceText) + " bytes");
        out[path] = FlatValue{text->get(), location_of(key, file)};
      } else {
        throw InputError(location_of(value, file), "sources." + path,
                         "expected a string naming the source, found " + describe_type(value));
      }
    }
  }
  return out;
}

std::vector<RawCloudOffer> read_cloud(const toml::node& node, const std::string& file) {
  const auto* array = node.as_array();
  if (array && array->empty()) return {};  // `cloud = []`: no offers, and nothing inherited
  if (!array || !array->is_array_of_tables())
    throw InputError(location_of(node, file), "cloud", "expected an array of tables ([[cloud]] entries)");
  std::vector<RawCloudOffer> offers;
  for (const auto& element : *array) {
    const auto& table = *element.as_table();
    RawCloudOffer offer;
    offer.where = location_of(element, file);
    for (auto&& [key, value] : table) {
      const std::string name(key.str());
      const KeyDef* def = find_in(cloud_keys(), name);
      if (!def)
        throw InputError(location_of(key, file), "cloud." + name,
                         "unknown key" + suggestion(name, cloud_keys(), {}));
      offer.values[name] = convert_value(*def, value, "cloud." + name, file);
    }
    for (const auto& def : cloud_keys())
      if (def.required && !offer.values.count(std::string(def.path)))
        throw InputError(offer.where, "cloud." + std::string(def.path), "missing required key in [[cloud]] entry");
    offers.push_back(std::move(offer));
  }
  return offers;
}

// NVIDIA's MAJOR.MINOR ("9.0"), or an AMD gfx target ("gfx942", "gfx90a"): letters and digits only.
bool is_compute_capability(const std::string& text) {
  if (text.rfind("gfx", 0) == 0) {
    if (text.size() < 4 || text.size() > 8) return false;
    for (char c : text)
      if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z'))) return false;
    return true;
  }
  const auto dot = text.find('.');
  if (dot == std::string::npos || dot == 0 || dot > 2 || dot + 1 == text.size() || text.size() - dot - 1 > 2)
    return false;
  for (size_t i = 0; i < text.size(); ++i)
    if (i != dot && !(text[i] >= '0' && text[i] <= '9')) return false;
  return true;
}

// Efficiencies of data types only some architectures have (FP6, FP4): an architecture file gives
// them where its GPUs run them; a GPU with such a rate and no efficiency is refused at load.
bool optional_in_architecture(std::string_view path) {
  return path == "efficiency.tensor.fp6" || path == "efficiency.tensor.fp4";
}

}  // namespace

std::vector<RawCloudOffer> read_cloud_offers(const toml::node& node, const std::string& file) {
  return read_cloud(node, file);
}

void check_rule(const KeyDef& def, const std::string& full_path, const FlatValue& value) {
  if (const auto* text = std::get_if<std::string>(&value.value)) {
    if (def.max_length > 0 && text->size() > def.max_length)
      throw InputError(value.where, full_path,
                       "text of " + std::to_string(text->size()) + " bytes is too long (" + range_text(def) + ")");
    if (text->find('\0') != std::string::npos)
      throw InputError(value.where, full_path, "text must not contain NUL characters");
    if (def.path == "compute_capability" && !is_compute_capability(*text))
      throw InputError(value.where, full_path, "expected MAJOR.MINOR such as \"9.0\" (or an AMD gfx target such as \"gfx942\"), found '" + *text + "'");
    if (def.path == "architecture" && !is_plain_name(*text))
      throw InputError(value.where, full_path,
                       "an architecture is a plain name such as \"hopper\" (letters, digits, '-', '_'), found '" +
                           *text + "'");
    return;
  }
  const auto number = scalar_as_number(value.value);
  if (!number) return;
  const double v = *number;
  if (!std::isfinite(v))
    throw InputError(value.where, full_path, "must be a finite number (found " + scalar_to_string(value.value) + ")");
  const bool ok = def.rule == Rule::none || (def.rule == Rule::positive && v > 0) ||
                  (def.rule == Rule::non_negative && v >= 0) || (def.rule == Rule::fraction && v > 0 && v <= 1);
  if (!ok)
    throw InputError(value.where, full_path,
                     std::string(rule_text(def.rule)) + " (found " + scalar_to_string(value.value) + ")");
  if (def.max > 0 && (v < def.min || v > def.max))
    throw InputError(value.where, full_path,
                     "out of range: must be " + range_text(def) + " (found " + scalar_to_string(value.value) + ")");
}

FlatValue convert_value(const KeyDef& def, const toml::node& node, const std::string& full_path,
                        const std::string& file) {
  FlatValue out;
  out.where = location_of(node, file);
  switch (def.kind) {
    case ValueKind::integer:
      if (!node.is_integer())
        throw InputError(out.where, full_path, "expected an integer, found " + describe_type(node));
      out.value = node.as_integer()->get();
      break;
    case ValueKind::number:
      if (node.is_integer()) {
        out.value = static_cast<double>(node.as_integer()->get());
      } else if (node.is_floating_point()) {
        out.value = node.as_floating_point()->get();
      } else {
        throw InputError(out.where, full_path, "expected a number, found " + describe_type(node));
      }
      break;
    case ValueKind::string:
      if (!node.is_string())
        throw InputError(out.where, full_path, "expected a string, found " + describe_type(node));
      out.value = node.as_string()->get();
      break;
  }
  check_rule(def, full_path, out);
  return out;
}

FlatTable read_keyed_table(const toml::table& table, const std::vector<KeyDef>& keys,
                           const std::vector<std::string>& special, const std::string& file) {
  FlatTable out;
  walk(table, "", keys, special, file, out);
  return out;
}

FlatTable read_sources_table(const toml::node& node, const std::string& file) { return read_sources(node, file); }

RawDescription read_gpu_table(const toml::table& table, const std::string& file) {
  RawDescription raw;
  raw.file = file;
  walk(table, "", gpu_keys(), {"cloud", "sources"}, file, raw.values);
  if (const auto* node = table.get("cloud")) raw.cloud = read_cloud(*node, file);
  if (const auto* node = table.get("sources")) raw.sources = read_sources(*node, file);
  return raw;
}

RawDescription read_gpu_file(const std::filesystem::path& path) {
  const toml::table table = parse_toml_file(path);
  return read_gpu_table(table, path.string());
}

RawDescription read_architecture_file(const std::filesystem::path& path) {
  const toml::table table = parse_toml_file(path);
  RawDescription raw;
  raw.file = path.string();
  walk(table, "", architecture_keys(), {"sources"}, raw.file, raw.values);
  if (const auto* node = table.get("sources")) raw.sources = read_sources(*node, raw.file);
  for (const auto& def : architecture_keys())
    if (!raw.values.count(std::string(def.path)) && !optional_in_architecture(def.path))
      throw InputError(SourceLocation{raw.file}, std::string(def.path),
                       "missing from the architecture defaults file (every default must be given)");
  return raw;
}

}  // namespace gpucast::hw
