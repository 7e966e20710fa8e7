#include "calibration/validation_report.h"

#include "reports/prediction_report.h"

#include <algorithm>
#include <cmath>

#include "calibration/case_variant.h"
#include "sim/op_predictor.h"
#include "workloads/op_params.h"

namespace gpucast::calib {
namespace {

using reports::Json;

wl::ParamMap params_from_json(const Json& params, const std::string& origin) {
  wl::ParamMap out;
  for (const auto& [key, value] : params.as_object()) {
    wl::LocatedParam p;
    p.where = SourceLocation{origin};
    if (value.is_bool())
      p.value = value.as_bool();
    else if (value.is_integer())
      p.value = static_cast<std::int64_t>(value.as_integer());
    else if (value.is_number())
      p.value = value.as_number();
    else if (value.is_string())
      p.value = value.as_string();
    else
      throw InputError(SourceLocation{origin}, key, "unsupported parameter value");
    out[key] = p;
  }
  return out;
}

// The case's "variant" (calibration/case_variant.h), empty when it has none.
std::string case_variant(const Json& c) {
  const Json* v = c.get("variant");
  return v && v->is_string() ? v->as_string() : std::string();
}

std::string kernel_names(const Json* kernels) {
  if (!kernels || !kernels->is_array()) return {};
  std::string out;
  for (const auto& k : kernels->as_array()) {
    const Json* name = k.get("name");
    if (!name || !name->is_string()) continue;
    std::string n = name->as_string();
    if (n.size() > 60) n = n.substr(0, 60);
    out += (out.empty() ? "" : " + ") + n;
  }
  return out;
}

}  // namespace

void set_speed_of_light(ValidationCase& v, const hw::GpuSpec& gpu, const std::string& pipe, double flops,
                        double predicted_dram_bytes, std::optional<double> measured_dram_bytes,
                        sim::Bound bound) {
  v.predicted_sol = reports::speed_of_light(gpu, pipe, flops, predicted_dram_bytes, v.predicted_us, bound);
  v.measured_sol = reports::speed_of_light(
      gpu, pipe, flops, measured_dram_bytes.value_or(predicted_dram_bytes), v.measured_us, bound);
}

void summarize_cases(ValidationReport& report) {
  std::map<std::string, std::map<std::string, std::vector<double>>> errors;
  for (const auto& v : report.cases) {
    const double err = v.error();
    errors[v.family][v.split].push_back(err);
    errors[v.family]["all"].push_back(err);
    errors["overall"][v.split].push_back(err);
    errors["overall"]["all"].push_back(err);
  }
  report.stats.clear();
  for (const auto& [family, by_split] : errors)
    for (const auto& [s, list] : by_split) report.stats[family][s] = summarize(list);
}

FamilyStats summarize(const std::vector<double>& errors) {
  FamilyStats s;
  s.count = static_cast<int>(errors.size());
  if (errors.empty()) return s;
  std::vector<double> abs;
  for (double e : errors) {
    abs.push_back(std::fabs(e));
    s.mape += std::fabs(e);
    s.bias += e;
    if (std::fabs(e) <= 0.10) s.within_10 += 1;
  }
  s.mape /= s.count;
  s.bias /= s.count;
  s.within_10 /= s.count;
  std::sort(abs.begin(), abs.end());
  const size_t n = abs.size();
  s.median_ape = n % 2 ? abs[n / 2] : 0.5 * (abs[n / 2 - 1] + abs[n / 2]);
  return s;
}

std::vector<const ValidationCase*> ValidationReport::worst(size_t n, const std::string& split) const {
  std::vector<const ValidationCase*> out;
  for (const auto& c : cases)
    if (split == "all" || c.split == split) out.push_back(&c);
  std::sort(out.begin(), out.end(),
            [](const auto* a, const auto* b) { return std::fabs(a->error()) > std::fabs(b->error()); });
  if (out.size() > n) out.resize(n);
  return out;
}

ValidationReport validate_offline(const std::string& path, const hw::GpuSpec& gpu, const std::string& split) {
  const Json doc = Json::parse_file(path);
  const Json* format = doc.get("format");
  if (!format || !format->is_string() || format->as_string().rfind("gpucast-validation/", 0) != 0)
    throw InputError(SourceLocation{path}, "format", "not a gpucast validation measurement file");
  ValidationReport report;
  report.gpu_predicted = gpu.id;
  if (const Json* env = doc.get("environment")) {
    if (const Json* g = env->get("gpu"); g && g->is_string()) report.gpu_measured = g->as_string();
    std::string on;
    for (const char* key : {"torch", "cuda", "driver"})
      if (const Json* v = env->get(key); v && v->is_string())
        on += std::string(on.empty() ? "" : ", ") + key + " " + v->as_string();
    report.measured_on = on;
  }
  if (const Json* date = doc.get("date"); date && date->is_string())
    report.measured_on = date->as_string() + (report.measured_on.empty() ? "" : "; " + report.measured_on);
  if (const Json* m = doc.get("method"); m && m->is_string()) report.method = m->as_string();

  sim::OpPredictor predictor(gpu);
  std::map<std::string, std::map<std::string, std::vector<double>>> errors;
  for (const Json& c : doc.at("cases").as_array()) {
    const std::string id = c.at("id").as_string();
    const std::string case_split = c.get("set") ? c.at("set").as_string() : "test";
    if (!split.empty() && case_split != split) continue;
    if (!c.get("measured_us")) {
      const Json* err = c.get("error");
      report.skipped.push_back(id + ": not measured (" +
                               (err && err->is_string() ? err->as_string() : "no time") + ")");
      continue;
    }
    ValidationCase v;
    v.id = id;
    v.family = c.at("family").as_string();
    v.split = case_split;
    v.op = c.at("op").as_string();
    v.measured_us = c.at("measured_us").as_number();
    v.measured_kernels = kernel_names(c.get("kernels"));
    try {
      const wl::OpDef* def = wl::find_op_def(v.op);
      if (!def) throw InputError(SourceLocation{path}, "op", "unknown op '" + v.op + "'");
      auto params = params_from_json(c.at("params"), path + " case " + id);
      apply_case_variant(v.op, case_variant(c), params, SourceLocation{path + " case " + id});
      wl::coerce_to_schema(params, *def);
      const wl::Op op = wl::build_op(v.op, params, id, SourceLocation{path});
      v.shape = wl::op_shape(op);
      const sim::OpTiming& t = predictor.predict(op);
      v.predicted_us = t.duration_us;
      v.option = t.option;
      v.bound = std::string(sim::bound_name(t.bound));
      set_speed_of_light(v, gpu, sim::sol_pipe(op, predictor.device()), t.flops, t.dram_bytes, std::nullopt,
                         t.bound);
    } catch (const Error& e) {
      report.skipped.push_back(id + ": cannot predict (" + e.what() + ")");
      continue;
    }
    const double err = v.error();
    errors[v.family][v.split].push_back(err);
    errors[v.family]["all"].push_back(err);
    errors["overall"][v.split].push_back(err);
    errors["overall"]["all"].push_back(err);
    report.cases.push_back(std::move(v));
  }
  for (const auto& [family, by_split] : errors)
    for (const auto& [s, list] : by_split) report.stats[family][s] = summarize(list);
  return report;
}

}  // namespace gpucast::calib

namespace gpucast::calib {

std::vector<std::pair<std::string, wl::Op>> validation_ops(const std::string& path) {
  const Json doc = Json::parse_file(path);
  std::vector<std::pair<std::string, wl::Op>> ops;
  for (const Json& c : doc.at("cases").as_array()) {
    const std::string id = c.at("id").as_string();
    const wl::OpDef* def = wl::find_op_def(c.at("op").as_string());
    if (!def) continue;
    auto params = params_from_json(c.at("params"), path + " case " + id);
    apply_case_variant(std::string(def->op), case_variant(c), params, SourceLocation{path + " case " + id});
    wl::coerce_to_schema(params, *def);
    ops.emplace_back(id, wl::build_op(def->op, params, id, SourceLocation{path}));
  }
  return ops;
}

}  // namespace gpucast::calib
