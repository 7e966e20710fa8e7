#include "reports/prediction_charts.h"

#include "sim/time_attribution.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "reports/units.h"
#include "reports/vega.h"

namespace gpucast::reports {
namespace {
using vega::arr;
using vega::obj;

// Timelines beyond this many kernels show the first ones only: a browser cannot draw 100k bars
// usefully, and the first layers look like the rest.
constexpr size_t kTimelineKernels = 3000;

struct Roof {
  std::string name;
  double tflops;
};

// One roof per distinct rate: data types that share a rate (fp16 and bf16, fp8 and int8) share
// a line and a label.
std::vector<Roof> compute_roofs(const hw::GpuSpec& gpu) {
  std::vector<Roof> roofs;
  auto add = [&](const std::string& name, double tflops) {
    for (auto& r : roofs)
      if (std::abs(r.tflops - tflops) <= 1e-6 * tflops) {
        r.name += "/" + name;
        return;
      }
    roofs.push_back({name, tflops});
  };
  for (const auto& [t, tflops] : gpu.compute.tensor_tflops) add(std::string(to_string(t)), tflops);
  for (auto& r : roofs) r.name += " tensor";
  if (gpu.compute.fp32_tflops > 0) add("fp32 SIMT", gpu.compute.fp32_tflops);
  if (gpu.compute.fp64_tflops > 0) add("fp64", gpu.compute.fp64_tflops);
  return roofs;
}

Json tooltip(std::initializer_list<std::pair<const char*, const char*>> fields) {
  Json t = Json::array();
  for (const auto& [field, title] : fields) t.push(obj({{"field", field}, {"title", title}}));
  return t;
}
}  // namespace

Chart roofline_chart(const hw::GpuSpec& gpu, const sim::Prediction* p, const std::string& id) {
  // Kernels with the same op, shape and stream are one mark (their times add up).
  struct Mark {
    std::string name, op, shape, bound;
    double flops = 0, bytes = 0, time_us = 0;
    int count = 0;
  };
  std::map<std::string, Mark> marks;
  size_t unplotted = 0;
  if (p) {
    for (const auto& k : p->kernels) {
      const auto& t = *k.timing;
      if (t.flops <= 0 || t.dram_bytes <= 0 || t.duration_us <= 0) {
        ++unplotted;
        continue;
      }
      auto& m = marks[std::string(k.op) + "|" + std::string(k.shape) + "|" + std::to_string(k.stream)];
      if (m.count == 0) m = Mark{k.name, std::string(k.op), std::string(k.shape), std::string(sim::bound_name(t.bound)), 0, 0, 0, 0};
      m.flops += t.flops;
      m.bytes += t.dram_bytes;
      m.time_us += t.duration_us;
      ++m.count;
    }
  }
  const double dram_tbps = gpu.memory.bandwidth_gbps / 1e3;
  const double l2_tbps = gpu.cache.l2_bandwidth_gbps / 1e3;
  const auto roofs = compute_roofs(gpu);
  double top = 0;
  for (const auto& r : roofs) top = std::max(top, r.tflops);
  double ai_lo = 0.05, ai_hi = std::max(1000.0, 4 * top / dram_tbps);
  double y_lo = 0.01;
  Json points = Json::array();
  for (const auto& [key, m] : marks) {
    const double ai = m.flops / m.bytes;
    const double tflops = m.flops / m.time_us * 1e-6;
    ai_lo = std::min(ai_lo, ai / 2);
    ai_hi = std::max(ai_hi, ai * 2);
    y_lo = std::min(y_lo, tflops / 2);
    points.push(obj({{"kernel", m.name + (m.count > 1 ? " (x" + std::to_string(m.count) + ")" : "")},
                     {"op", m.op},
                     {"shape", m.shape},
                     {"bound", m.bound},
                     {"intensity", ai},
                     {"tflops", tflops},
                     {"time_us", m.time_us},
                     {"time", duration(m.time_us)}}));
  }
  // Ceilings as two-point lines across the plotted intensity range; the roofline is their minimum.
  Json lines = Json::array();
  Json labels = Json::array();
  auto line = [&](const std::string& name, double y0, double y1, const std::string& kind) {
    lines.push(obj({{"ceiling", name}, {"kind", kind}, {"intensity", ai_lo}, {"tflops", y0}}));
    lines.push(obj({{"ceiling", name}, {"kind", kind}, {"intensity", ai_hi}, {"tflops", y1}}));
  };
  for (const auto& r : roofs) {
    line(r.name, r.tflops, r.tflops, "compute roof");
    labels.push(obj({{"label", r.name + " " + sig3(r.tflops) + " TFLOP/s"}, {"intensity", ai_hi}, {"tflops", r.tflops}}));
  }
  line("DRAM " + bandwidth(gpu.memory.bandwidth_gbps), dram_tbps * ai_lo, dram_tbps * ai_hi, "bandwidth ceiling");
  Json slanted = Json::array();  // bandwidth labels sit on their lines, left-aligned
  slanted.push(obj({{"label", "DRAM " + bandwidth(gpu.memory.bandwidth_gbps)},
                    {"intensity", ai_lo * 1.3},
                    {"tflops", dram_tbps * ai_lo * 1.3}}));
  if (l2_tbps > 0) {
    line("L2 " + bandwidth(gpu.cache.l2_bandwidth_gbps), l2_tbps * ai_lo, l2_tbps * ai_hi, "bandwidth ceiling");
    slanted.push(obj({{"label", "L2 " + bandwidth(gpu.cache.l2_bandwidth_gbps)},
                      {"intensity", ai_lo * 1.3},
                      {"tflops", l2_tbps * ai_lo * 1.3}}));
  }
  const Json x_scale = obj({{"type", "log"}, {"domain", arr({ai_lo, ai_hi})}});
  const Json y_scale = obj({{"type", "log"}, {"domain", arr({y_lo, top * 2})}});
  const Json x = obj({{"field", "intensity"}, {"type", "quantitative"}, {"scale", x_scale},
                      {"title", "arithmetic intensity (FLOP per byte of DRAM traffic, log)"}});
  const Json y = obj({{"field", "tflops"}, {"type", "quantitative"}, {"scale", y_scale},
                      {"title", "achieved TFLOP/s (log)"}});
  Json layers = Json::array();
  layers.push(obj({{"data", obj({{"values", lines}})},
                   {"mark", obj({{"type", "line"}, {"clip", true}, {"color", "#888"}, {"strokeWidth", 1.5}})},
                   {"encoding", obj({{"x", x},
                                     {"y", y},
                                     {"detail", obj({{"field", "ceiling"}, {"type", "nominal"}})},
                                     {"strokeDash", obj({{"field", "kind"}, {"type", "nominal"}, {"title", "ceiling"}})}})}}));
  layers.push(obj({{"data", obj({{"values", labels}})},
                   {"mark", obj({{"type", "text"}, {"align", "right"}, {"dy", -7}, {"fontSize", 10}, {"color", "#555"}, {"clip", true}})},
                   {"encoding", obj({{"x", x}, {"y", y}, {"text", obj({{"field", "label"}})}})}}));
  layers.push(obj({{"data", obj({{"values", slanted}})},
                   {"mark", obj({{"type", "text"}, {"align", "left"}, {"dx", 2}, {"dy", -8}, {"fontSize", 10}, {"color", "#555"}})},
                   {"encoding", obj({{"x", x}, {"y", y}, {"text", obj({{"field", "label"}})}})}}));
  if (points.size() > 0) {
    layers.push(obj({{"data", obj({{"values", points}})},
                     {"mark", obj({{"type", "circle"}, {"opacity", 0.75}, {"stroke", "#222"}, {"strokeWidth", 0.5}})},
                     {"encoding", obj({{"x", x},
                                       {"y", y},
                                       {"size", obj({{"field", "time_us"}, {"type", "quantitative"}, {"title", "time (us)"},
                                                     {"scale", obj({{"range", arr({20, 900})}})}})},
                                       {"color", vega::bound_color()},
                                       {"tooltip", tooltip({{"kernel", "kernel"}, {"op", "op"}, {"shape", "shape"},
                                                            {"time", "time"}, {"bound", "bound"}, {"tflops", "TFLOP/s"},
                                                            {"intensity", "FLOP/byte"}})}})}}));
  }
  Json s = vega::spec("roofline", Json::array(), 680, 400);
  s.set("layer", layers);
  s.set("resolve", obj({{"scale", obj({{"size", "independent"}})}}));
  Chart c;
  c.id = id;
  c.title = "Roofline: " + gpu.name;
  c.caption = p ? "Each circle is a kernel shape (repeats merged), placed at its arithmetic intensity and the "
                  "TFLOP/s it achieves; its area is its time, its color the bound that limits it. Horizontal "
                  "lines are the dense compute peaks per data type, diagonal lines the DRAM and L2 bandwidth "
                  "ceilings. A kernel far below every line is limited by latency or launch overhead." +
                      (unplotted ? " " + std::to_string(unplotted) +
                                       " kernels without FLOPs or DRAM traffic (copies, memsets) are not drawn."
                                 : std::string())
                : "The GPU's dense compute peaks per data type (horizontal) and its DRAM and L2 bandwidth "
                  "ceilings (diagonal): a kernel can reach at most the lowest line above its arithmetic intensity.";
  c.spec = s;
  return c;
}

Chart time_by_op_chart(const sim::Prediction& p, const std::string& id) {
  const auto shares = sim::attribute_time(p);
  std::map<std::pair<std::string, std::string>, double> sums;
  for (size_t i = 0; i < p.kernels.size(); ++i)
    sums[{std::string(p.kernels[i].op), std::string(sim::bound_name(p.kernels[i].timing->bound))}] += shares.kernel_us[i];
  if (shares.idle_us > 0) sums[{sim::kIdleCategory, sim::kIdleCategory}] += shares.idle_us;
  Json rows = Json::array();
  for (const auto& [key, us] : sums)
    rows.push(obj({{"op", key.first}, {"bound", key.second}, {"time_us", us}, {"time", duration(us)}}));
  Json s = vega::spec("time by op family", rows, 640, std::max<int>(120, 28 * int(shares.by_op.size())));
  s.set("mark", "bar");
  s.set("encoding", obj({{"y", obj({{"field", "op"}, {"type", "nominal"}, {"title", "op family"}, {"sort", "-x"}})},
                         {"x", obj({{"field", "time_us"}, {"type", "quantitative"}, {"aggregate", "sum"},
                                    {"title", "time of the step (us)"}})},
                         {"color", vega::bound_color()},
                         {"tooltip", tooltip({{"op", "op"}, {"bound", "bound"}, {"time", "time"}})}}));
  return Chart{id, "Where the time goes: by op family",
               "The step's time per op family (each kernel's span on the timeline, overlapping kernels "
               "sharing it; host is time the GPU sits idle), split by the bound that limits each kernel. "
               "The bars add up to the step time.",
               s};
}

Chart time_by_bound_chart(const sim::Prediction& p, const std::string& id) {
  Json rows = Json::array();
  // The timeline's attribution: the same figures as time_by_bound_us in JSON; they sum to the step.
  for (const auto& [b, us] : p.time_by_bound())
    rows.push(obj({{"bound", b}, {"time_us", us}, {"share", p.total_us > 0 ? us / p.total_us : 0.0}}));
  Json s = vega::spec("time by bound", rows, 640, 150);
  s.set("mark", "bar");
  s.set("encoding", obj({{"y", obj({{"field", "bound"}, {"type", "nominal"}, {"title", "bound"}, {"sort", "-x"}})},
                         {"x", obj({{"field", "time_us"}, {"type", "quantitative"}, {"title", "time of the step (us)"}})},
                         {"color", vega::bound_color()},
                         {"tooltip", Json(Json::Array{obj({{"field", "bound"}}),
                                                      obj({{"field", "time_us"}, {"title", "us"}, {"format", ".1f"}}),
                                                      obj({{"field", "share"}, {"format", ".1%"}})})}}));
  return Chart{id, "Where the time goes: by bound",
               "The step's time split by what limits it: compute, memory, latency or launch overhead while "
               "kernels run, and host when the GPU sits idle waiting for the CPU to issue work.",
               s};
}

Chart timeline_chart(const sim::Prediction& p, const std::string& id) {
  Json bars = Json::array();
  Json issues = Json::array();
  Json host = Json::array();
  const size_t n = std::min(p.kernels.size(), kTimelineKernels);
  for (size_t i = 0; i < n; ++i) {
    const auto& k = p.kernels[i];
    const auto& s = k.scheduled;
    bars.push(obj({{"lane", "stream " + std::to_string(k.stream)}, {"kernel", k.name}, {"op", k.op},
                   {"shape", k.shape}, {"start", s.start_us}, {"end", s.end_us},
                   {"time", duration(s.end_us - s.start_us)}}));
    issues.push(obj({{"lane", "host issues"}, {"kernel", k.name}, {"issue", s.issue_us}}));
    // The host's work for this kernel, one segment per host category, in category order.
    double t = k.host_begin_us;
    for (size_t c = 0; c < wl::kHostCategories; ++c) {
      const double us = p.host_cost(k)[c];
      if (us <= 0) continue;
      host.push(obj({{"lane", "host"}, {"kernel", k.name}, {"category", std::string(wl::host_category_name(wl::HostCategory(c)))},
                     {"start", t}, {"end", t + us}, {"time", duration(us)}}));
      t += us;
    }
    // A gap before the next kernel's host work is the host waiting in a synchronization.
    if (i + 1 < n && p.kernels[i + 1].host_begin_us > s.issue_us + 1e-9)
      host.push(obj({{"lane", "host"}, {"kernel", k.name}, {"category", "sync wait"}, {"start", s.issue_us},
                     {"end", p.kernels[i + 1].host_begin_us},
                     {"time", duration(p.kernels[i + 1].host_begin_us - s.issue_us)}}));
  }
  const Json x_title = Json("time (us)");
  Json layers = Json::array();
  layers.push(obj({{"data", obj({{"values", bars}})},
                   {"mark", obj({{"type", "bar"}, {"height", 18}})},
                   {"encoding", obj({{"x", obj({{"field", "start"}, {"type", "quantitative"}, {"title", x_title}})},
                                     {"x2", obj({{"field", "end"}})},
                                     {"y", obj({{"field", "lane"}, {"type", "nominal"}, {"title", nullptr}})},
                                     {"color", obj({{"field", "op"}, {"type", "nominal"}, {"title", "op family"}})},
                                     {"tooltip", tooltip({{"kernel", "kernel"}, {"op", "op"}, {"shape", "shape"},
                                                          {"start", "start (us)"}, {"time", "time"}})}})}}));
  if (p.launch == wl::LaunchMode::eager && host.size() > 0)
    layers.push(obj({{"data", obj({{"values", host}})},
                     {"mark", obj({{"type", "bar"}, {"height", 18}})},
                     {"encoding", obj({{"x", obj({{"field", "start"}, {"type", "quantitative"}, {"title", x_title}})},
                                       {"x2", obj({{"field", "end"}})},
                                       {"y", obj({{"field", "lane"}, {"type", "nominal"}, {"title", nullptr}})},
                                       {"color", obj({{"field", "category"}, {"type", "nominal"},
                                                      {"title", "host category"},
                                                      {"scale", obj({{"scheme", "tableau20"}})}})},
                                       {"tooltip", tooltip({{"kernel", "for kernel"}, {"category", "host category"},
                                                            {"start", "start (us)"}, {"time", "time"}})}})}}));
  if (p.launch == wl::LaunchMode::eager)
    layers.push(obj({{"data", obj({{"values", issues}})},
                     {"mark", obj({{"type", "tick"}, {"color", "#555"}, {"thickness", 1}})},
                     {"encoding", obj({{"x", obj({{"field", "issue"}, {"type", "quantitative"}, {"title", x_title}})},
                                       {"y", obj({{"field", "lane"}, {"type", "nominal"}, {"title", nullptr}})},
                                       {"tooltip", tooltip({{"kernel", "kernel"}, {"issue", "issued at (us)"}})}})}}));
  int lanes = 1;
  for (size_t i = 0; i < n; ++i) lanes = std::max(lanes, p.kernels[i].stream + 1);
  Json s = vega::spec("timeline", Json::array(), 760, 40 * (lanes + 2) + 20);
  s.set("layer", layers);
  s.set("resolve", obj({{"scale", obj({{"color", "independent"}})}}));
  std::string caption = "Kernels on each stream over time (hover for names); gaps are time the GPU waited. ";
  caption += p.launch == wl::LaunchMode::eager
                 ? "The host lane shows the CPU's work per host category (Python module calls, aten dispatch, "
                   "autograd, launches, library setup, optimizer, syncs) and the ticks when it launched each "
                   "kernel: when the host runs behind the GPU, the GPU's gaps are host time."
                 : "Launched as one CUDA graph: the host issues the whole step at once.";
  if (p.kernels.size() > n)
    caption += " Showing the first " + std::to_string(n) + " of " + std::to_string(p.kernels.size()) + " kernels.";
  return Chart{id, "Timeline", caption, s};
}

}  // namespace gpucast::reports
