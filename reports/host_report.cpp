#include "reports/host_report.h"

#include "reports/units.h"

namespace gpucast::reports {
namespace {

double speedup(const sim::Prediction& p, double base_items, const HostAlternative& a) {
  const double base = p.total_us / std::max(base_items, 1e-300);
  const double alt = a.total_us / std::max(a.items, 1e-300);
  return alt > 0 ? base / alt : 0;
}

}  // namespace

std::string host_summary(const sim::Prediction& p) {
  std::string s = "host busy " + duration(p.host_busy_us) + ", GPU busy " + duration(p.gpu_busy_us) +
                  ", GPU idle " + duration(std::max(0.0, p.gpu_idle_us()));
  if (p.host_stall_us > 0) s += ", host waiting in syncs " + duration(p.host_stall_us);
  s += p.host_bound()
           ? ": HOST-BOUND (the CPU needs longer to issue the work than the GPU to run it; a faster "
             "GPU would not help)"
           : ": GPU-bound";
  return s;
}

Table host_table(const sim::Prediction& p) {
  Table t({{"host category"}, {"time", Align::right}, {"share of host busy", Align::right}});
  for (size_t c = 0; c < wl::kHostCategories; ++c) {
    const double us = p.host_by_category[c];
    if (us <= 0) continue;
    t.add_row({std::string(wl::host_category_name(wl::HostCategory(c))), duration(us),
               percent(p.host_busy_us > 0 ? us / p.host_busy_us : 0)});
  }
  if (p.host_delay_us > 0)
    t.add_row({"explicit host delays", duration(p.host_delay_us),
               percent(p.host_busy_us > 0 ? p.host_delay_us / p.host_busy_us : 0)});
  t.add_separator();
  t.add_row({"host busy", duration(p.host_busy_us), percent(p.host_busy_us > 0 ? 1.0 : 0.0)});
  if (p.syncs > 0)
    t.add_row({"waiting in " + std::to_string(p.syncs) + " sync(s)", duration(p.host_stall_us), ""});
  return t;
}

Table alternatives_table(const sim::Prediction& p, double base_items,
                         const std::vector<HostAlternative>& alternatives) {
  Table t({{"change"}, {"how"}, {"step time", Align::right}, {"time per item", Align::right}, {"bound"}});
  t.add_row({"as predicted", "", duration(p.total_us), "1.00x", p.host_bound() ? "host" : "GPU"});
  for (const auto& a : alternatives) {
    const double s = speedup(p, base_items, a);
    t.add_row(
        {a.change, a.how, duration(a.total_us), fixed(s, 2) + "x faster", a.host_bound ? "host" : "GPU"});
  }
  return t;
}

std::vector<Section> host_sections(const sim::Prediction& p, double base_items,
                                   const std::vector<HostAlternative>& alternatives) {
  std::vector<Section> out;
  out.push_back(Section{"Host", host_summary(p) + ".", host_table(p)});
  if (!alternatives.empty())
    out.push_back(
        Section{"What would change it",
                "Each alternative is predicted by re-running with the change; time per item compares "
                "steps of different batch sizes.",
                alternatives_table(p, base_items, alternatives)});
  return out;
}

Json host_json(const sim::Prediction& p, double base_items,
               const std::vector<HostAlternative>& alternatives) {
  Json j = Json::object();
  j.set("host", p.host);
  j.set("host_busy_us", p.host_busy_us);
  j.set("gpu_busy_us", p.gpu_busy_us);
  j.set("gpu_idle_us", std::max(0.0, p.gpu_idle_us()));
  j.set("host_stall_us", p.host_stall_us);
  j.set("host_delay_us", p.host_delay_us);
  j.set("syncs", p.syncs);
  j.set("host_bound", p.host_bound());
  Json by = Json::object();
  for (size_t c = 0; c < wl::kHostCategories; ++c)
    by.set(std::string(wl::host_category_name(wl::HostCategory(c))), p.host_by_category[c]);
  j.set("host_by_category_us", std::move(by));
  Json alts = Json::array();
  for (const auto& a : alternatives) {
    Json x = Json::object();
    x.set("change", a.change);
    x.set("how", a.how);
    x.set("total_us", a.total_us);
    x.set("items_per_step", a.items);
    x.set("speedup_per_item", speedup(p, base_items, a));
    x.set("host_bound", a.host_bound);
    alts.push(std::move(x));
  }
  j.set("alternatives", std::move(alts));
  return j;
}

}  // namespace gpucast::reports
