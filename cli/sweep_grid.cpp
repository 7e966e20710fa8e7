#include "cli/sweep_grid.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <algorithm>
#include <set>

#include "common/dtype.h"
#include "common/errors.h"
#include "common/limits.h"
#include "workloads/generate.h"
#include "hardware/key_schema.h"
#include "hardware/overrides.h"
#include "common/suggest.h"

namespace gpucast::cli {
namespace {

[[noreturn]] void bad(const std::string& spec, const std::string& why) {
  throw UsageError("--vary " + spec + ": " + why);
}

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t") - b + 1);
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  size_t start = 0;
  while (true) {
    const size_t at = s.find(sep, start);
    out.push_back(trim(s.substr(start, at == std::string::npos ? std::string::npos : at - start)));
    if (at == std::string::npos) return out;
    start = at + 1;
  }
}

double number(const std::string& spec, const std::string& text, const char* what) {
  char* end = nullptr;
  errno = 0;
  const double v = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || errno != 0 || !std::isfinite(v))
    bad(spec, std::string(what) + " '" + text + "' is not a number");
  return v;
}

std::string format_value(double v, bool integer) {
  char buf[64];
  if (integer) std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>(std::llround(v)));
  else std::snprintf(buf, sizeof buf, "%.10g", v);
  return buf;
}

// START:STOP:STEP (arithmetic, STOP included when the steps land on it) or START:STOP:*FACTOR.
std::vector<std::string> expand_range(const std::string& spec, const std::string& range, bool integer) {
  const auto parts = split(range, ':');
  if (parts.size() != 3) bad(spec, "a range is START:STOP:STEP or START:STOP:*FACTOR (e.g. 1000:4000:500)");
  const double start = number(spec, parts[0], "START");
  const double stop = number(spec, parts[1], "STOP");
  if (stop < start) bad(spec, "STOP is below START");
  const bool geometric = !parts[2].empty() && parts[2][0] == '*';
  const double step = number(spec, geometric ? trim(parts[2].substr(1)) : parts[2], geometric ? "FACTOR" : "STEP");
  if (geometric && !(step > 1)) bad(spec, "FACTOR must be greater than 1");
  if (geometric && !(start > 0)) bad(spec, "a geometric range needs START > 0");
  if (!geometric && !(step > 0)) bad(spec, "STEP must be positive");
  if (integer && (start != std::floor(start) || (!geometric && step != std::floor(step))))
    bad(spec, "this key takes integers: START and STEP must be whole numbers");
  std::vector<std::string> values;
  const double slack = 1e-9 * std::max(1.0, std::abs(stop));
  for (double v = start, i = 0; v <= stop + slack; ++i) {
    if (values.size() >= kMaxSweepPoints) bad(spec, "more than " + std::to_string(kMaxSweepPoints) + " values");
    values.push_back(format_value(v, integer));
    v = geometric ? v * step : start + (i + 1) * step;  // no accumulated rounding
  }
  return values;
}

const std::set<std::string>& integer_workload_keys() {
  static const std::set<std::string> kKeys{"batch", "seq", "context", "layers"};
  return kKeys;
}

void check_workload_value(const std::string& spec, const std::string& key, const std::string& value) {
  if (integer_workload_keys().count(key)) {
    const auto v = parse_int64(value);
    const long long min = key == "context" ? 0 : 1;
    const long long max = key == "batch" ? wl::kMaxBatch : key == "layers" ? 100000 : wl::kMaxSeq;
    if (!v || *v < min || *v > max)
      bad(spec, key + " takes integers in [" + std::to_string(min) + ", " + std::to_string(max) + "], not '" + value +
                    "'");
  } else if (key == "dtype") {
    if (!parse_dtype(value)) bad(spec, "unknown data type '" + value + "' (" + dtype_choices() + ")");
  } else if (key == "launch") {
    if (value != "eager" && value != "graph") bad(spec, "launch is eager or graph, not '" + value + "'");
  }
}

}  // namespace

const std::vector<std::string>& workload_sweep_keys() {
  static const std::vector<std::string> kKeys{"batch", "seq", "context", "dtype", "layers", "launch"};
  return kKeys;
}

SweepAxis parse_vary(const std::string& raw) {
  const std::string spec = trim(raw);
  const auto eq = spec.find('=');
  if (eq == std::string::npos) bad(spec, "expected KEY=START:STOP:STEP or KEY=V1,V2,...");
  SweepAxis axis;
  axis.key = trim(spec.substr(0, eq));
  const std::string rhs = trim(spec.substr(eq + 1));
  if (axis.key.empty()) bad(spec, "no key before '='");
  if (rhs.empty()) bad(spec, "no values after '='");

  const auto& wkeys = workload_sweep_keys();
  const bool workload = std::find(wkeys.begin(), wkeys.end(), axis.key) != wkeys.end();
  bool integer = workload && integer_workload_keys().count(axis.key);
  if (!workload) {
    const hw::KeyDef* def = hw::find_gpu_key(axis.key);
    if (!def) {
      auto names = hw::gpu_key_names();
      names.insert(names.end(), wkeys.begin(), wkeys.end());
      bad(spec, "unknown key '" + axis.key + "'" + did_you_mean(axis.key, names));
    }
    if (def->kind == hw::ValueKind::string) bad(spec, axis.key + " is text; only numeric hardware keys can be swept");
    integer = def->kind == hw::ValueKind::integer;
  }
  axis.kind = workload ? AxisKind::workload : AxisKind::hardware;

  const bool is_range = rhs.find(':') != std::string::npos;
  if (is_range) {
    if ((axis.key == "dtype" || axis.key == "launch")) bad(spec, axis.key + " takes a list of values, not a range");
    axis.values = expand_range(spec, rhs, integer);
  } else {
    axis.values = split(rhs, ',');
  }
  std::set<std::string> seen;
  for (const auto& v : axis.values) {
    if (v.empty()) bad(spec, "empty value in the list");
    if (!seen.insert(v).second) bad(spec, "value '" + v + "' appears twice");
    if (workload) {
      check_workload_value(spec, axis.key, v);
    } else {
      try {
        (void)hw::make_override(axis.key, v);
      } catch (const InputError& e) {
        bad(spec, e.detail());
      }
      const double x = number(spec, v, "value");
      const hw::Rule rule = hw::find_gpu_key(axis.key)->rule;
      const bool ok = rule == hw::Rule::positive       ? x > 0
                      : rule == hw::Rule::non_negative ? x >= 0
                      : rule == hw::Rule::fraction     ? (x > 0 && x <= 1)
                                                       : true;
      if (!ok) bad(spec, axis.key + " must be " + std::string(hw::rule_text(rule)) + ", not " + v);
    }
  }
  return axis;
}

std::vector<SweepAxis> parse_vary_all(const std::vector<std::string>& specs, size_t max_points) {
  if (specs.empty()) throw UsageError("give at least one --vary KEY=VALUES");
  std::vector<SweepAxis> axes;
  std::set<std::string> keys;
  for (const auto& s : specs) {
    axes.push_back(parse_vary(s));
    if (!keys.insert(axes.back().key).second) throw UsageError("--vary " + axes.back().key + " is given twice");
  }
  if (grid_size(axes) > max_points)
    throw UsageError("the sweep has " + std::to_string(grid_size(axes)) + " points; the most is " +
                     std::to_string(max_points) + " (raise it with --max-points N)");
  return axes;
}

size_t grid_size(const std::vector<SweepAxis>& axes) {
  if (axes.empty()) return 0;
  size_t n = 1;
  for (const auto& a : axes) {
    if (a.values.empty()) return 0;
    if (n > kMaxSweepPoints * 10) return n;  // no overflow; already far too large
    n *= a.values.size();
  }
  return n;
}

std::vector<std::string> grid_point(const std::vector<SweepAxis>& axes, size_t index) {
  std::vector<std::string> values(axes.size());
  for (size_t i = axes.size(); i-- > 0;) {
    const size_t n = axes[i].values.size();
    values[i] = axes[i].values[index % n];
    index /= n;
  }
  return values;
}

}  // namespace gpucast::cli
