#include "hardware/overrides.h"

#include <cerrno>
#include <cstdlib>

#include "hardware/description_reader.h"
#include "hardware/key_schema.h"
#include "common/suggest.h"

namespace gpucast::hw {
namespace {

std::string trim(const std::string& s) {
  const auto begin = s.find_first_not_of(" \t");
  if (begin == std::string::npos) return {};
  const auto end = s.find_last_not_of(" \t");
  return s.substr(begin, end - begin + 1);
}

}  // namespace

Override make_override(const std::string& path, const std::string& value_text) {
  const SourceLocation where{"--set " + path + "=" + value_text};
  if (path == "cloud" || path.rfind("cloud.", 0) == 0 || path.rfind("sources", 0) == 0)
    throw InputError(where, path, "cloud prices and sources cannot be set with --set (edit a TOML file instead)");
  const KeyDef* def = find_gpu_key(path);
  if (!def) throw InputError(where, path, "unknown key" + did_you_mean(path, gpu_key_names()));
  if (path == "extends" || path == "architecture")
    throw InputError(where, path, "cannot be overridden; write a TOML file that extends the GPU instead");
  return convert_override(*def, path, value_text);
}

Override convert_override(const KeyDef& key, const std::string& path, const std::string& value_text) {
  const KeyDef* def = &key;
  const SourceLocation where{"--set " + path + "=" + value_text};
  Override out{path, FlatValue{{}, where}};
  const char* text = value_text.c_str();
  char* end = nullptr;
  errno = 0;
  switch (def->kind) {
    case ValueKind::integer: {
      const long long v = std::strtoll(text, &end, 10);
      if (value_text.empty() || *end != '\0' || errno != 0)
        throw InputError(where, path, "expected an integer, found '" + value_text + "'");
      out.value.value = static_cast<std::int64_t>(v);
      break;
    }
    case ValueKind::number: {
      const double v = std::strtod(text, &end);
      if (value_text.empty() || *end != '\0' || errno != 0)
        throw InputError(where, path, "expected a number, found '" + value_text + "'");
      out.value.value = v;
      break;
    }
    case ValueKind::string: out.value.value = value_text; break;
  }
  check_rule(*def, path, out.value);
  return out;
}

Override parse_override(const std::string& assignment) {
  const auto eq = assignment.find('=');
  if (eq == std::string::npos)
    throw InputError(SourceLocation{"--set " + assignment}, "", "expected key.path=value");
  return make_override(trim(assignment.substr(0, eq)), trim(assignment.substr(eq + 1)));
}

std::vector<Override> parse_overrides(const std::vector<std::string>& assignments) {
  std::vector<Override> out;
  out.reserve(assignments.size());
  for (const auto& a : assignments) out.push_back(parse_override(a));
  return out;
}

}  // namespace gpucast::hw
