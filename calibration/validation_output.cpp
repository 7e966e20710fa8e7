#include "calibration/validation_output.h"

#include "reports/units.h"

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
                    {"predicted kernel"}});
  for (const auto* c : cases) {
    const double e = c->error();
    t.add_row({c->id, c->split, c->op, c->shape, reports::duration(c->measured_us), reports::duration(c->predicted_us),
               (e >= 0 ? "+" : "") + reports::fixed(e * 100, 1) + "%", c->bound, c->option});
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
    cases.push(std::move(j));
  }
  root.set("cases", std::move(cases));
  Json skipped = Json::array();
  for (const auto& s : r.skipped) skipped.push(s);
  root.set("skipped", std::move(skipped));
  return root;
}

}  // namespace gpucast::calib
