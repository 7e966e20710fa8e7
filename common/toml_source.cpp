#include "common/toml_source.h"

#include <cmath>
#include <fstream>
#include <sstream>

#include "common/limits.h"

namespace gpucast {

toml::table parse_toml_text(std::string_view text, const std::string& origin) {
  try {
    return toml::parse(text, origin);
  } catch (const toml::parse_error& e) {
    throw InputError(location_of(e.source(), origin), "", "TOML syntax error: " + std::string(e.description()));
  }
}

toml::table parse_toml_file(const std::filesystem::path& path) {
  return parse_toml_text(read_input_file(path), path.string());
}

SourceLocation location_of(const toml::source_region& region, const std::string& fallback_file) {
  SourceLocation where;
  where.file = region.path ? *region.path : fallback_file;
  where.line = static_cast<int>(region.begin.line);
  where.column = static_cast<int>(region.begin.column);
  return where;
}

SourceLocation location_of(const toml::node& node, const std::string& fallback_file) {
  return location_of(node.source(), fallback_file);
}

SourceLocation location_of(const toml::key& key, const std::string& fallback_file) {
  return location_of(key.source(), fallback_file);
}

std::string describe_type(const toml::node& node) {
  switch (node.type()) {
    case toml::node_type::table: return "a table";
    case toml::node_type::array: return "an array";
    case toml::node_type::string: return "a string";
    case toml::node_type::integer: return "an integer";
    case toml::node_type::floating_point: return "a floating-point number";
    case toml::node_type::boolean: return "a boolean";
    case toml::node_type::date: return "a date";
    case toml::node_type::time: return "a time";
    case toml::node_type::date_time: return "a date-time";
    default: return "nothing";
  }
}

std::string describe_type(const Scalar& value) {
  switch (value.index()) {
    case 0: return "a boolean";
    case 1: return "an integer";
    case 2: return "a floating-point number";
    default: return "a string";
  }
}

std::string scalar_to_string(const Scalar& value) {
  if (auto* b = std::get_if<bool>(&value)) return *b ? "true" : "false";
  if (auto* i = std::get_if<std::int64_t>(&value)) return std::to_string(*i);
  if (auto* d = std::get_if<double>(&value)) {
    std::ostringstream out;
    out.precision(10);
    out << *d;
    return out.str();
  }
  return std::get<std::string>(value);
}

std::optional<double> scalar_as_number(const Scalar& value) {
  if (auto* i = std::get_if<std::int64_t>(&value)) return static_cast<double>(*i);
  if (auto* d = std::get_if<double>(&value)) return *d;
  return std::nullopt;
}

}  // namespace gpucast
