#include "calibration/validation_output.h"

#include "reports/prediction_report.h"

#include <algorithm>
#include <cmath>

#include "reports/units.h"
#include "reports/vega.h"

namespace gpucast::calib {
using reports::Align;

reports::Table family_table(const ValidationReport& r) {
  reports::Table t({{"family"},
                    {"cases", Align::right},
                    {"MAPE test", Align::right},
                    {"MAPE dev", Align::right},
                    {"MAPE all", Align::right},
                    {"median APE", Align::right},
                    {"bias", Align::right},
                    {"within 10%", Align::right}});
  auto cell = [](const std::map<std::string, FamilyStats>& m, const std::string& split) {
    auto it = m.find(split);
    return it == m.end() || it->second.count == 0 ? std::string("-") : reports::percent(it->second.mape);
  };
  for (const auto& [family, by_split] : r.stats) {
    if (family == "overall") continue;
    const auto& all = by_split.at("all");
    t.add_row({family, std::to_string(all.count), cell(by_split, "test"), cell(by_split, "dev"), cell(by_split, "all"),
               reports::percent(all.median_ape), reports::percent(all.bias), reports::percent(all.within_10)});
  }
  if (r.stats.count("overall")) {
    t.add_separator();
    const auto& by_split = r.stats.at("overall");
    const auto& all = by_split.at("all");
    t.add_row({"overall", std::to_string(all.count), cell(by_split, "test"), cell(by_split, "dev"),
               cell(by_split, "all"), reports::percent(all.median_ape), reports::percent(all.bias),
               reports::percent(all.within_10)});
  }
  return t;
}

reports::Table cases_table(const std::vector<const ValidationCase*>& cases) {
  reports::Table t({{"case"},
                    {"split"},
                    {"op"},
                    {"shape"},
                    {"measured", Align::right},
                    {"predicted", Align::right},
                    {"error", Align::right},
                    {"bound"},
                    {"SOL measured", Align::right},
                    {"SOL predicted", Align::right},
                    {"predicted kernel"}});
  for (const auto* c : cases) {
    const double e = c->error();
    t.add_row({c->id, c->split, c->op, c->shape, reports::duration(c->measured_us), reports::duration(c->predicted_us),
               (e >= 0 ? "+" : "") + reports::fixed(e * 100, 1) + "%", c->bound,
               reports::percent(c->measured_sol.bound_pct / 100), reports::percent(c->predicted_sol.bound_pct / 100),
               c->option});
  }
  return t;
}

reports::Json validation_json(const ValidationReport& r) {
  using reports::Json;
  Json root = Json::object();
  root.set("gpu_measured", r.gpu_measured);
  root.set("gpu_predicted", r.gpu_predicted);
  root.set("measured_on", r.measured_on);
  root.set("method", r.method);
  Json families = Json::object();
  for (const auto& [family, by_split] : r.stats) {
    Json f = Json::object();
    for (const auto& [split, s] : by_split) {
      Json j = Json::object();
      j.set("cases", s.count);
      j.set("mape", s.mape);
      j.set("median_ape", s.median_ape);
      j.set("bias", s.bias);
      j.set("within_10pct", s.within_10);
      f.set(split, std::move(j));
    }
    families.set(family, std::move(f));
  }
  root.set("families", std::move(families));
  Json cases = Json::array();
  for (const auto& c : r.cases) {
    Json j = Json::object();
    j.set("id", c.id);
    j.set("family", c.family);
    j.set("split", c.split);
    j.set("op", c.op);
    j.set("shape", c.shape);
    j.set("measured_us", c.measured_us);
    j.set("predicted_us", c.predicted_us);
    j.set("error", c.error());
    j.set("bound", c.bound);
    j.set("predicted_kernel", c.option);
    j.set("measured_kernels", c.measured_kernels);
    j.set("predicted_sol", reports::sol_json(c.predicted_sol));
    j.set("measured_sol", reports::sol_json(c.measured_sol));
    j.set("ncu_sm_pct", reports::number_or_null(c.ncu_sm_pct));
    j.set("ncu_memory_pct", reports::number_or_null(c.ncu_memory_pct));
    cases.push(std::move(j));
  }
  root.set("cases", std::move(cases));
  Json skipped = Json::array();
  for (const auto& s : r.skipped) skipped.push(s);
  root.set("skipped", std::move(skipped));
  return root;
}

reports::Table cases_csv_table(const ValidationReport& r) {
  reports::Table t({{"case"}, {"split"}, {"family"}, {"op"}, {"shape"}, {"measured_us"}, {"predicted_us"}, {"error"},
                    {"bound"}, {"predicted_kernel"}, {"measured_kernels"}, {"sol_pipe"}, {"measured_sol_compute_pct"},
                    {"measured_sol_memory_pct"}, {"measured_sol_bound_pct"}, {"predicted_sol_bound_pct"}});
  for (const auto& c : r.cases)
    t.add_row({c.id, c.split, c.family, c.op, c.shape, reports::format_number(c.measured_us),
               reports::format_number(c.predicted_us), reports::format_number(c.error()), c.bound, c.option,
               c.measured_kernels, c.measured_sol.pipe, reports::format_number(c.measured_sol.compute_pct, 4),
               reports::format_number(c.measured_sol.memory_pct, 4), reports::format_number(c.measured_sol.bound_pct, 4),
               reports::format_number(c.predicted_sol.bound_pct, 4)});
  return t;
}

reports::Chart predicted_vs_measured_chart(const ValidationReport& r) {
  using reports::Json;
  using reports::vega::arr;
  using reports::vega::obj;
  Json points = Json::array();
  double lo = INFINITY, hi = 0;
  for (const auto& c : r.cases) {
    points.push(obj({{"case", c.id},
                     {"family", c.family},
                     {"split", c.split},
                     {"shape", c.op + " " + c.shape},
                     {"measured_us", c.measured_us},
                     {"predicted_us", c.predicted_us},
                     {"error", c.error()},
                     {"kernel", c.option}}));
    lo = std::min({lo, c.measured_us, c.predicted_us});
    hi = std::max({hi, c.measured_us, c.predicted_us});
  }
  if (!(lo < hi)) lo = 1, hi = 10;
  lo /= 1.5;
  hi *= 1.5;
  Json bands = Json::array();
  for (const auto& [name, factor] : std::vector<std::pair<std::string, double>>{
           {"predicted = measured", 1.0}, {"+10%", 1.1}, {"-10%", 0.9}}) {
    bands.push(obj({{"line", name}, {"measured_us", lo}, {"predicted_us", lo * factor}}));
    bands.push(obj({{"line", name}, {"measured_us", hi}, {"predicted_us", hi * factor}}));
  }
  const Json domain = arr({lo, hi});
  const Json x = obj({{"field", "measured_us"}, {"type", "quantitative"}, {"title", "measured (us, log)"},
                      {"scale", obj({{"type", "log"}, {"domain", domain}})}});
  const Json y = obj({{"field", "predicted_us"}, {"type", "quantitative"}, {"title", "predicted (us, log)"},
                      {"scale", obj({{"type", "log"}, {"domain", domain}})}});
  Json layers = Json::array();
  layers.push(obj({{"data", obj({{"values", bands}})},
                   {"mark", obj({{"type", "line"}, {"clip", true}, {"color", "#777"}})},
                   {"encoding", obj({{"x", x}, {"y", y}, {"detail", obj({{"field", "line"}, {"type", "nominal"}})},
                                     {"strokeDash", obj({{"field", "line"}, {"type", "nominal"}, {"title", nullptr},
                                                         {"scale", obj({{"domain", arr({"predicted = measured", "+10%", "-10%"})},
                                                                        {"range", arr({arr({1, 0}), arr({4, 4}), arr({4, 4})})}})}})}})}}));
  layers.push(obj({{"data", obj({{"values", points}})},
                   {"mark", obj({{"type", "point"}, {"filled", true}, {"opacity", 0.7}})},
                   {"encoding", obj({{"x", x}, {"y", y},
                                     {"color", obj({{"field", "family"}, {"type", "nominal"}, {"title", "op family"}})},
                                     {"shape", obj({{"field", "split"}, {"type", "nominal"}, {"title", "split"}})},
                                     {"tooltip", Json(Json::Array{obj({{"field", "case"}}), obj({{"field", "shape"}}),
                                                                  obj({{"field", "measured_us"}, {"format", ".2f"}}),
                                                                  obj({{"field", "predicted_us"}, {"format", ".2f"}}),
                                                                  obj({{"field", "error"}, {"format", "+.1%"}}),
                                                                  obj({{"field", "kernel"}})})}})}}));
  Json s = reports::vega::spec("predicted against measured", Json::array(), 560, 560);
  s.set("layer", layers);
  std::string mape = "-";
  if (r.stats.count("overall")) mape = reports::percent(r.stats.at("overall").at("all").mape);
  return {"predicted-vs-measured", "Predicted against measured (MAPE " + mape + " over " +
                                       std::to_string(r.cases.size()) + " kernels)",
          "One point per validation kernel, on log axes; points between the dashed lines are within 10%. "
          "Above the solid line the prediction is too slow, below it too fast. Dev cases informed the op "
          "models' constants; test cases never did.",
          s};
}

reports::Chart family_error_chart(const ValidationReport& r) {
  using reports::Json;
  using reports::vega::obj;
  Json rows = Json::array();
  for (const auto& [family, by_split] : r.stats)
    for (const auto& [split, st] : by_split)
      if (split != "all" && st.count > 0) rows.push(obj({{"family", family}, {"split", split}, {"mape", st.mape}, {"cases", st.count}}));
  Json s = reports::vega::spec("MAPE per family", rows, 560, std::max<int>(160, 30 * int(r.stats.size())));
  s.set("mark", "bar");
  s.set("encoding", obj({{"y", obj({{"field", "family"}, {"type", "nominal"}, {"title", "op family"}})},
                         {"yOffset", obj({{"field", "split"}, {"type", "nominal"}})},
                         {"x", obj({{"field", "mape"}, {"type", "quantitative"}, {"title", "mean absolute error"},
                                    {"axis", obj({{"format", ".0%"}})}})},
                         {"color", obj({{"field", "split"}, {"type", "nominal"}, {"title", "split"}})},
                         {"tooltip", Json(Json::Array{obj({{"field", "family"}}), obj({{"field", "split"}}),
                                                      obj({{"field", "mape"}, {"format", ".1%"}}),
                                                      obj({{"field", "cases"}})})}}));
  return {"family-error", "Error per op family",
          "Mean absolute percentage error of each op family, on the test split (held out) and the dev split.", s};
}

reports::Report validation_document(const ValidationReport& r, bool all_cases, size_t worst) {
  reports::Report doc;
  doc.title = "Validation: " + r.gpu_measured + " measured, " + r.gpu_predicted + " predicted";
  doc.summary.push_back("Measured: " + r.gpu_measured + " (" + r.measured_on + ")");
  doc.summary.push_back("Predicted with: " + r.gpu_predicted);
  if (r.stats.count("overall")) {
    const auto& o = r.stats.at("overall");
    std::string line = "MAPE " + reports::percent(o.at("all").mape) + " over " + std::to_string(o.at("all").count) + " kernels";
    if (o.count("test") && o.at("test").count) line += "; test split " + reports::percent(o.at("test").mape);
    if (o.count("dev") && o.at("dev").count) line += ", dev split " + reports::percent(o.at("dev").mape);
    doc.summary.push_back(line);
  }
  if (!r.skipped.empty()) doc.summary.push_back(std::to_string(r.skipped.size()) + " cases skipped");
  std::vector<const ValidationCase*> all;
  for (const auto& c : r.cases) all.push_back(&c);
  doc.sections.push_back({"Error per op family", "", family_table(r)});
  doc.sections.push_back({all_cases ? "Cases" : "Worst cases", "", cases_table(all_cases ? all : r.worst(worst))});
  doc.charts.push_back(predicted_vs_measured_chart(r));
  doc.charts.push_back(family_error_chart(r));
  doc.csv = cases_csv_table(r);
  doc.json = validation_json(r);
  doc.inputs = {{"measured GPU", r.gpu_measured}, {"measured on", r.measured_on}, {"method", r.method},
                {"predicted with", r.gpu_predicted}};
  return doc;
}

}  // namespace gpucast::calib
