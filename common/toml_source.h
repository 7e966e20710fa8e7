#pragma once
// Reading TOML files while keeping every value's file:line:column, so that semantic errors point
// at the offending line just like TOML++ syntax errors do.
#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <variant>

#include <toml++/toml.h>

#include "common/errors.h"

namespace gpucast {

// A scalar setting (from a file or from the command line) and where it came from.
using Scalar = std::variant<bool, std::int64_t, double, std::string>;
struct FlatValue {
  Scalar value;
  SourceLocation where;
};
// Dotted key path ("sm.count") -> value. Ordered, so output is stable.
using FlatTable = std::map<std::string, FlatValue>;

// Parses a TOML file; a missing file or a syntax error becomes an InputError with file:line:column.
[[nodiscard]] toml::table parse_toml_file(const std::filesystem::path& path);
// Parses TOML text (tests and --set use this); `origin` names the text in error messages.
[[nodiscard]] toml::table parse_toml_text(std::string_view text, const std::string& origin);

[[nodiscard]] SourceLocation location_of(const toml::source_region& region, const std::string& fallback_file);
[[nodiscard]] SourceLocation location_of(const toml::node& node, const std::string& fallback_file);
[[nodiscard]] SourceLocation location_of(const toml::key& key, const std::string& fallback_file);

// "an integer", "a string", ... for error messages.
[[nodiscard]] std::string describe_type(const toml::node& node);
[[nodiscard]] std::string describe_type(const Scalar& value);

// Scalar to display text (numbers without trailing zeros, strings unquoted).
[[nodiscard]] std::string scalar_to_string(const Scalar& value);
// Numeric value of an integer or floating-point scalar; nullopt for strings and booleans.
[[nodiscard]] std::optional<double> scalar_as_number(const Scalar& value);

}  // namespace gpucast
