#include "workloads/op_params.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <type_traits>

namespace gpucast::wl {
namespace {

template <class T>
struct FamilyList;
template <class... Ts>
struct FamilyList<std::variant<Ts...>> {
  // Every family's definitions, tagged with the variant index of the family that owns them.
  static std::vector<std::pair<OpDef, size_t>> defs() {
    std::vector<std::pair<OpDef, size_t>> out;
    size_t index = 0;
    (
        [&] {
          for (auto& d : OpFamily<Ts>::defs()) out.emplace_back(std::move(d), index);
          ++index;
        }(),
        ...);
    return out;
  }
  // Builds the op of the family at `index`.
  static Op build(size_t index, std::string_view name, const ParamReader& p) {
    Op out;
    size_t i = 0;
    ((i++ == index ? (out = OpFamily<Ts>::build(name, p), true) : false) || ...);
    return out;
  }
};
using Families = FamilyList<Op>;

const std::vector<std::pair<OpDef, size_t>>& tagged_defs() {
  static const auto kDefs = Families::defs();
  return kDefs;
}

std::string range_number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.15g", v);
  return buf;
}

std::string value_text(double v) {
  if (v == std::floor(v) && std::fabs(v) < 9e18) return std::to_string(static_cast<long long>(v));
  return std::to_string(v);
}

// Where a parameter was written; a reader that kept only its line and column gets the kernel's file.
SourceLocation param_location(const LocatedParam& p, const SourceLocation& kernel_at) {
  SourceLocation where = p.where;
  if (where.file.empty()) where.file = kernel_at.file;
  return where;
}

void check_param_ranges(const OpDef& def, const ParamMap& p, const std::string& kernel,
                        const SourceLocation& at) {
  for (const auto& param : def.params) {
    auto it = p.find(param.name);
    if (it == p.end()) continue;
    double v = 0;
    if (const auto* i = std::get_if<std::int64_t>(&it->second.value))
      v = static_cast<double>(*i);
    else if (const auto* d = std::get_if<double>(&it->second.value))
      v = *d;
    else
      continue;
    const double max = param.max > 0                      ? param.max
                       : param.kind == ParamKind::integer ? double(kMaxDim)
                                                          : kMaxNumber;
    if (!std::isfinite(v))
      throw InputError(param_location(it->second, at), std::string(param.name),
                       "kernel '" + kernel + "': must be a finite number (found " + range_number(v) + ")");
    if (v < param.min || v > max)
      throw InputError(param_location(it->second, at), std::string(param.name),
                       "kernel '" + kernel + "': out of range: must be in " + param_range_text(param) +
                           " (found " + range_number(v) + ")");
  }
}
}  // namespace

// ---- ParamMap ------------------------------------------------------------------------------

ParamMap::iterator ParamMap::find(std::string_view name) {
  return std::find_if(items_.begin(), items_.end(),
                      [&](const value_type& item) { return item.first == name; });
}
ParamMap::const_iterator ParamMap::find(std::string_view name) const {
  return std::find_if(items_.begin(), items_.end(),
                      [&](const value_type& item) { return item.first == name; });
}
std::pair<ParamMap::iterator, bool> ParamMap::emplace(std::string_view name, LocatedParam value) {
  if (auto it = find(name); it != end()) return {it, false};
  items_.emplace_back(std::string(name), std::move(value));
  return {items_.end() - 1, true};
}
LocatedParam& ParamMap::operator[](std::string_view name) {
  return emplace(name, LocatedParam{}).first->second;
}
const LocatedParam& ParamMap::at(std::string_view name) const {
  const auto it = find(name);
  if (it == end()) throw std::out_of_range("no parameter '" + std::string(name) + "'");
  return it->second;
}

// ---- ParamReader ---------------------------------------------------------------------------

std::int64_t ParamReader::integer(std::string_view name, std::int64_t fallback) const {
  auto it = p_.find(name);
  return it == p_.end() ? fallback : std::get<std::int64_t>(it->second.value);
}
double ParamReader::number(std::string_view name, double fallback) const {
  auto it = p_.find(name);
  if (it == p_.end()) return fallback;
  if (auto* i = std::get_if<std::int64_t>(&it->second.value)) return static_cast<double>(*i);
  return std::get<double>(it->second.value);
}
bool ParamReader::boolean(std::string_view name, bool fallback) const {
  auto it = p_.find(name);
  return it == p_.end() ? fallback : std::get<bool>(it->second.value);
}
DataType ParamReader::dtype(std::string_view name, DataType fallback) const {
  auto it = p_.find(name);
  return it == p_.end() ? fallback : *parse_dtype(std::get<std::string>(it->second.value));
}
std::string ParamReader::text(std::string_view name, const std::string& fallback) const {
  auto it = p_.find(name);
  return it == p_.end() ? fallback : std::get<std::string>(it->second.value);
}
void ParamReader::positive(std::string_view name, double v) const {
  if (!(v > 0)) fail(name, "must be > 0 (found " + value_text(v) + ")");
}
void ParamReader::non_negative(std::string_view name, double v) const {
  if (!(v >= 0)) fail(name, "must be >= 0 (found " + value_text(v) + ")");
}
void ParamReader::elements(std::string_view name, std::initializer_list<Count> dims,
                           const char* tensor) const {
  double product = 1;
  for (Count d : dims) product *= static_cast<double>(d);
  if (product > kMaxElements)
    fail(name, std::string("the ") + tensor + " would hold " + value_text(product) +
                   " elements, over the limit of 2^48");
}
void ParamReader::fail(std::string_view name, const std::string& message) const {
  auto it = p_.find(name);
  throw InputError(it == p_.end() ? where_ : param_location(it->second, where_), std::string(name),
                   "kernel '" + kernel_ + "': " + message);
}

// ---- the schema, gathered from the families ------------------------------------------------

const std::vector<OpDef>& op_defs() {
  static const std::vector<OpDef> kDefs = [] {
    std::vector<OpDef> out;
    for (const auto& [def, family] : tagged_defs()) out.push_back(def);
    return out;
  }();
  return kDefs;
}

const OpDef* find_op_def(std::string_view op) {
  for (const auto& def : op_defs())
    if (def.op == op) return &def;
  return nullptr;
}

std::vector<std::string> op_names() {
  std::vector<std::string> names;
  for (const auto& def : op_defs()) names.emplace_back(def.op);
  return names;
}

std::string param_range_text(const ParamDef& def) {
  if (def.kind != ParamKind::integer && def.kind != ParamKind::number) return "";
  const double max = def.max > 0 ? def.max : def.kind == ParamKind::integer ? double(kMaxDim) : kMaxNumber;
  return "[" + range_number(def.min) + ", " + range_number(max) + "]";
}

void coerce_to_schema(ParamMap& params, const OpDef& def) {
  for (const auto& p : def.params) {
    auto it = params.find(p.name);
    if (it == params.end()) continue;
    auto& v = it->second.value;
    if (p.kind == ParamKind::number) {
      if (const auto* i = std::get_if<std::int64_t>(&v)) v = static_cast<double>(*i);
    } else if (p.kind == ParamKind::integer) {
      if (const auto* d = std::get_if<double>(&v)) {
        if (!(std::isfinite(*d) && *d == std::floor(*d) && std::fabs(*d) < 9e18))
          throw InputError(it->second.where, std::string(p.name),
                           "expected an integer, found " + range_number(*d));
        v = static_cast<std::int64_t>(*d);
      }
    }
  }
}

Op build_op(std::string_view op, const ParamMap& p, const std::string& kernel, const SourceLocation& where) {
  for (const auto& [def, family] : tagged_defs()) {
    if (def.op != op) continue;
    check_param_ranges(def, p, kernel, where);
    return Families::build(family, op, ParamReader(p, kernel, where));
  }
  throw InputError(where, "op", "unknown op '" + std::string(op) + "'");
}

ParamList op_params(const Op& op) {
  return std::visit([](const auto& o) { return OpFamily<std::decay_t<decltype(o)>>::params(o); }, op);
}

}  // namespace gpucast::wl
