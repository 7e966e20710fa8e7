#include "calibration/adjustments.h"

#include <algorithm>
#include <cmath>

#include "common/toml_source.h"

namespace gpucast::calib {

std::vector<Adjustment> read_adjustments(const std::filesystem::path& file) {
  const std::string name = file.string();
  const toml::table doc = parse_toml_file(file);
  std::vector<Adjustment> out;
  for (const auto& [key, node] : doc) {
    const std::string path(key.str());
    const auto* t = node.as_table();
    if (!t) throw InputError(location_of(key, name), path, "expected a table with value, how and source");
    Adjustment a;
    a.key = path;
    a.where = location_of(key, name);
    const auto* value = t->get("value");
    if (!value || !value->is_number())
      throw InputError(value ? location_of(*value, name) : a.where, path + ".value",
                       value ? "expected a number, got " + describe_type(*value) : "missing");
    a.value = value->is_integer() ? double(value->as_integer()->get()) : value->as_floating_point()->get();
    if (!std::isfinite(a.value) || a.value <= 0)
      throw InputError(location_of(*value, name), path + ".value", "must be a positive finite number");
    for (auto [field, target] : {std::pair{"how", &a.how}, std::pair{"source", &a.source}}) {
      const auto* s = t->get(field);
      if (!s || !s->is_string() || s->as_string()->get().empty())
        throw InputError(s ? location_of(*s, name) : a.where, path + "." + field,
                         s ? "expected a non-empty string" : "missing: say where the value comes from");
      *target = s->as_string()->get();
    }
    for (const auto& [k, _] : *t)
      if (k.str() != "value" && k.str() != "how" && k.str() != "source")
        throw InputError(location_of(k, name), path + "." + std::string(k.str()),
                         "unknown field (value, how and source are the fields)");
    out.push_back(std::move(a));
  }
  return out;
}

void apply_adjustments(CalibrationResult& r, const std::vector<Adjustment>& adjustments) {
  for (const auto& a : adjustments) {
    const auto it =
        std::find_if(r.values.begin(), r.values.end(), [&](const FittedValue& v) { return v.key == a.key; });
    if (it == r.values.end()) throw InputError(a.where, a.key, "the fit produced no such value to adjust");
    it->value = a.value;
    it->how = a.how;
    r.key_sources[a.key] = a.source + " (" + std::filesystem::path(a.where.file).filename().string() + ")";
  }
}

}  // namespace gpucast::calib
