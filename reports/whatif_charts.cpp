#include "reports/whatif_charts.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "reports/units.h"
#include "reports/vega.h"

namespace gpucast::reports {
namespace {
using vega::arr;
using vega::obj;

bool is_number(const std::string& s) {
  char* end = nullptr;
  std::strtod(s.c_str(), &end);
  return !s.empty() && *end == '\0';
}
}  // namespace

std::vector<Chart> compare_charts(const std::vector<models::cost::ComparisonRow>& rows, const std::string& result_unit) {
  Json time_rows = Json::array();
  Json value_rows = Json::array();
  Json cost_rows = Json::array();
  const std::string tp_unit = rows.empty() ? "" : rows.front().throughput_unit;
  for (const auto& r : rows) {
    if (!r.error.empty()) continue;  // nothing to draw: it cannot run the workload
    const std::string label = std::to_string(r.rank) + ". " + r.gpu + (r.fits ? "" : " (does not fit)");
    time_rows.push(obj({{"gpu", label}, {"rank", r.rank}, {"time_us", r.time_us}, {"time", duration(r.time_us)},
                        {"bound", r.bound}, {"speedup", r.speedup}, {"fits", r.fits}}));
    if (r.throughput_per_kusd)
      value_rows.push(obj({{"gpu", label}, {"rank", r.rank}, {"metric", tp_unit + " per $1,000"},
                           {"value", *r.throughput_per_kusd}}));
    value_rows.push(obj({{"gpu", label}, {"rank", r.rank}, {"metric", tp_unit + " per watt"},
                         {"value", r.throughput_per_watt}}));
    if (r.owned_usd_per_result)
      cost_rows.push(obj({{"gpu", label}, {"rank", r.rank}, {"way", "owned"}, {"usd", *r.owned_usd_per_result}}));
    if (r.rented_usd_per_result)
      cost_rows.push(obj({{"gpu", label}, {"rank", r.rank}, {"way", "rented"},
                          {"provider", r.cloud ? r.cloud->provider + " " + r.cloud->instance : ""},
                          {"usd", *r.rented_usd_per_result}}));
  }
  const int height = std::max(120, 26 * int(rows.size()));
  const Json gpu_axis = obj({{"field", "gpu"}, {"type", "nominal"}, {"title", nullptr},
                             {"sort", obj({{"field", "rank"}, {"op", "min"}})}});  // rank order, however many rows a GPU has
  std::vector<Chart> charts;

  Json t = vega::spec("time per step", time_rows, 600, height);
  t.set("mark", "bar");
  t.set("encoding", obj({{"y", gpu_axis},
                         {"x", obj({{"field", "time_us"}, {"type", "quantitative"}, {"title", "time per step (us)"}})},
                         {"color", vega::bound_color()},
                         {"opacity", obj({{"condition", obj({{"test", "datum.fits"}, {"value", 1}})}, {"value", 0.35}})},
                         {"tooltip", Json(Json::Array{obj({{"field", "gpu"}}), obj({{"field", "time"}}),
                                                      obj({{"field", "speedup"}, {"format", ".2f"}}),
                                                      obj({{"field", "bound"}})})}}));
  charts.push_back({"time", "Time per step",
                    "Predicted time of one step on each GPU, in rank order; the color is the bound that dominates. "
                    "Faded bars are GPUs the workload does not fit on.",
                    t});

  Json v = vega::spec("value", value_rows, 280, height);
  v.set("mark", "bar");
  v.set("encoding", obj({{"y", gpu_axis},
                         {"x", obj({{"field", "value"}, {"type", "quantitative"}, {"title", nullptr}})},
                         {"column", obj({{"field", "metric"}, {"type", "nominal"}, {"title", nullptr}})},
                         {"color", obj({{"field", "metric"}, {"type", "nominal"}, {"legend", nullptr}})},
                         {"tooltip", Json(Json::Array{obj({{"field", "gpu"}}), obj({{"field", "metric"}}),
                                                      obj({{"field", "value"}, {"format", ".3~s"}})})}}));
  v.set("resolve", obj({{"scale", obj({{"x", "independent"}})}}));
  charts.push_back({"value", "Throughput per dollar and per watt",
                    "Throughput for each $1,000 of GPU price (catalog price; see its kind and date) and for each watt "
                    "of rated board power.",
                    v});

  if (cost_rows.size() > 0) {
    Json c = vega::spec("cost per result", cost_rows, 600, height);
    c.set("mark", "bar");
    c.set("encoding", obj({{"y", gpu_axis},
                           {"yOffset", obj({{"field", "way"}, {"type", "nominal"}})},
                           {"x", obj({{"field", "usd"}, {"type", "quantitative"}, {"title", "USD per " + result_unit}})},
                           {"color", obj({{"field", "way"}, {"type", "nominal"}, {"title", "paying by"}})},
                           {"tooltip", Json(Json::Array{obj({{"field", "gpu"}}), obj({{"field", "way"}}),
                                                        obj({{"field", "provider"}}),
                                                        obj({{"field", "usd"}, {"format", "$.4~g"}})})}}));
    charts.push_back({"cost", "Cost per " + result_unit,
                      "What one " + result_unit + " costs when the GPU is owned (purchase spread over the horizon plus "
                      "electricity, at the assumed utilization) and when it is rented on demand.",
                      c});
  }
  return charts;
}

std::vector<Chart> sweep_charts(const std::vector<std::string>& keys, const std::vector<SweepPointView>& points,
                                const std::string& throughput_unit) {
  // The x axis is the first numeric axis (or the first axis); the others name the series.
  size_t x_axis = 0;
  bool numeric = false;
  for (size_t i = 0; i < keys.size() && !numeric; ++i) {
    bool all = true;
    for (const auto& p : points) all &= is_number(p.values[i]);
    if (all) x_axis = i, numeric = true;
  }
  double lo = INFINITY, hi = 0;
  Json rows = Json::array();
  for (const auto& p : points) {
    if (!p.time_us) continue;
    std::string series;
    for (size_t i = 0; i < keys.size(); ++i)
      if (i != x_axis) series += (series.empty() ? "" : ", ") + keys[i] + "=" + p.values[i];
    Json x = numeric ? Json(std::strtod(p.values[x_axis].c_str(), nullptr)) : Json(p.values[x_axis]);
    rows.push(obj({{"x", x}, {"series", series.empty() ? keys[x_axis] : series}, {"time_us", *p.time_us},
                   {"time", duration(*p.time_us)}, {"throughput", p.throughput.value_or(0)}, {"bound", p.bound}}));
    lo = std::min(lo, *p.time_us);
    hi = std::max(hi, *p.time_us);
  }
  auto make = [&](const std::string& field, const std::string& title, bool log_y) {
    double xlo = INFINITY, xhi = 0;
    for (const auto& p : points) {
      const double v = std::strtod(p.values[x_axis].c_str(), nullptr);
      xlo = std::min(xlo, v), xhi = std::max(xhi, v);
    }
    Json x = obj({{"field", "x"}, {"type", numeric ? "quantitative" : "ordinal"}, {"title", keys[x_axis]}});
    if (numeric && xlo > 0 && xhi / xlo >= 16) x.set("scale", obj({{"type", "log"}, {"base", 2}}));
    Json y = obj({{"field", field}, {"type", "quantitative"}, {"title", title}});
    if (log_y) y.set("scale", obj({{"type", "log"}}));
    const Json series = obj({{"field", "series"}, {"type", "nominal"}, {"title", nullptr}});
    Json tip = Json(Json::Array{obj({{"field", "series"}}), obj({{"field", "x"}, {"title", keys[x_axis]}}),
                                obj({{"field", "time"}}), obj({{"field", "throughput"}, {"format", ".4~s"}}),
                                obj({{"field", "bound"}})});
    Json layers = Json::array();
    layers.push(obj({{"mark", obj({{"type", "line"}})},
                     {"encoding", obj({{"x", x}, {"y", y}, {"detail", series},
                                       {"color", obj({{"value", "#bbb"}})}})}}));
    layers.push(obj({{"mark", obj({{"type", "point"}, {"filled", true}, {"size", 60}})},
                     {"encoding", obj({{"x", x}, {"y", y}, {"color", vega::bound_color()},
                                       {"shape", series}, {"tooltip", tip}})}}));
    Json s = vega::spec(title, rows, 640, 300);
    s.set("layer", layers);
    return s;
  };
  const bool log_time = lo > 0 && hi / lo >= 20;
  std::vector<Chart> charts;
  charts.push_back({"time", "Time per step against " + keys[x_axis],
                    "Each point is one sweep point, colored by the bound that dominates it" +
                        std::string(keys.size() > 1 ? "; the shape tells the series (the other swept keys)." : ".") +
                        " Where the color changes, the workload turns from one limit to another.",
                    make("time_us", std::string("time per step (us") + (log_time ? ", log)" : ")"), log_time)});
  charts.push_back({"throughput", throughput_unit + " against " + keys[x_axis],
                    "The same points as throughput.", make("throughput", throughput_unit, false)});
  return charts;
}

Chart cost_chart(const std::vector<CostLine>& lines, double horizon_days, std::optional<double> break_even_days) {
  const double end = std::max(horizon_days, break_even_days ? 1.25 * *break_even_days : 0.0);
  Json rows = Json::array();
  const int steps = 60;
  for (const auto& l : lines)
    for (int i = 0; i <= steps; ++i) {
      const double d = end * i / steps;
      rows.push(obj({{"way", l.name}, {"days", d}, {"usd", l.upfront_usd + l.usd_per_day * d}}));
    }
  Json layers = Json::array();
  layers.push(obj({{"mark", obj({{"type", "line"}, {"strokeWidth", 2}})},
                   {"encoding", obj({{"x", obj({{"field", "days"}, {"type", "quantitative"}, {"title", "days of ownership"}})},
                                     {"y", obj({{"field", "usd"}, {"type", "quantitative"}, {"title", "cumulative cost (USD)"}})},
                                     {"color", obj({{"field", "way"}, {"type", "nominal"}, {"title", nullptr}})},
                                     {"tooltip", Json(Json::Array{obj({{"field", "way"}}),
                                                                  obj({{"field", "days"}, {"format", ".0f"}}),
                                                                  obj({{"field", "usd"}, {"format", "$,.0f"}})})}})}}));
  Json marks = Json::array();
  marks.push(obj({{"days", horizon_days}, {"label", "horizon"}}));
  if (break_even_days) marks.push(obj({{"days", *break_even_days}, {"label", "break-even " + fixed(*break_even_days, 0) + " days"}}));
  layers.push(obj({{"data", obj({{"values", marks}})},
                   {"mark", obj({{"type", "rule"}, {"strokeDash", arr({4, 4})}, {"color", "#555"}})},
                   {"encoding", obj({{"x", obj({{"field", "days"}, {"type", "quantitative"}})}})}}));
  layers.push(obj({{"data", obj({{"values", marks}})},
                   {"mark", obj({{"type", "text"}, {"align", "left"}, {"dx", 4}, {"y", 12}, {"color", "#333"}})},
                   {"encoding", obj({{"x", obj({{"field", "days"}, {"type", "quantitative"}})},
                                     {"text", obj({{"field", "label"}})}})}}));
  Json s = vega::spec("cumulative cost", rows, 640, 300);
  s.set("layer", layers);
  return Chart{"cumulative-cost", "Cumulative cost: owning against renting",
               "Owning starts at the purchase price and adds electricity for the hours worked; renting starts at "
               "zero and adds the hourly price for the same hours. Where the lines cross, owning has paid for "
               "itself.",
               s};
}

}  // namespace gpucast::reports
