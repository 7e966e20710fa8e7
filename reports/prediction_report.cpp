#include "reports/prediction_report.h"

#include "reports/prediction_charts.h"
#include "reports/units.h"
#include "sim/time_attribution.h"

namespace gpucast::reports {
namespace {

double achieved_tflops(const sim::OpTiming& t) { return t.duration_us > 0 ? t.flops / t.duration_us * 1e-6 : 0; }
double achieved_gbps(const sim::OpTiming& t) { return t.duration_us > 0 ? t.dram_bytes / t.duration_us * 1e-3 : 0; }

}  // namespace

sim::SpeedOfLight speed_of_light(const hw::GpuSpec& gpu, const std::string& pipe, double flops, double dram_bytes,
                                 double duration_us, sim::Bound bound) {
  double peak = 0;
  if (pipe == "fp64") peak = gpu.compute.fp64_tflops;
  else if (pipe == "fp32") peak = gpu.compute.fp32_tflops;
  else if (pipe.rfind("tensor ", 0) == 0)
    if (const auto t = parse_dtype(pipe.substr(7)); t && gpu.has_tensor(*t)) peak = gpu.tensor_tflops(*t);
  return sim::speed_of_light(pipe, peak, gpu.memory.bandwidth_gbps, flops, dram_bytes, duration_us, bound);
}

sim::SpeedOfLight kernel_sol(const hw::GpuSpec& gpu, const sim::KernelPrediction& k) {
  const auto& t = *k.timing;
  return speed_of_light(gpu, std::string(k.sol_pipe), t.flops, t.dram_bytes, t.duration_us, t.bound);
}

Json sol_json(const sim::SpeedOfLight& s) {
  Json j = Json::object();
  j.set("pipe", s.pipe);
  j.set("peak_tflops", s.peak_tflops);
  j.set("achieved_tflops", s.achieved_tflops);
  j.set("compute_pct", s.compute_pct);
  j.set("peak_gbps", s.peak_gbps);
  j.set("achieved_gbps", s.achieved_gbps);
  j.set("memory_pct", s.memory_pct);
  j.set("bound_pct", s.bound_pct);
  return j;
}

Table kernel_table(const hw::GpuSpec& gpu, const sim::Prediction& p) {
  Table t({{"kernel"},
           {"op"},
           {"shape"},
           {"start", Align::right},
           {"duration", Align::right},
           {"in step", Align::right},
           {"TFLOP/s", Align::right},
           {"GB/s", Align::right},
           {"bound"},
           {"SOL", Align::right}});
  const auto shares = sim::attribute_time(p);
  for (size_t i = 0; i < p.kernels.size(); ++i) {
    const auto& k = p.kernels[i];
    const auto& op = *k.timing;
    t.add_row({k.name, std::string(k.op), std::string(k.shape), duration(k.scheduled.start_us), duration(op.duration_us),
               duration(shares.kernel_us[i]), sig3(achieved_tflops(op)), sig3(achieved_gbps(op)),
               std::string(sim::bound_name(op.bound)), percent(kernel_sol(gpu, k).bound_pct / 100)});
  }
  t.add_separator();
  if (shares.idle_us > 0)
    t.add_row({sim::kIdleCategory, "", "GPU idle, waiting for the host", "", "", duration(shares.idle_us), "", "", "", ""});
  t.add_row({"total", "", std::to_string(p.kernels.size()) + " kernels, " + std::string(wl::launch_mode_name(p.launch)),
             "", "", duration(p.total_us), sig3(p.total_us > 0 ? p.flops / p.total_us * 1e-6 : 0),
             sig3(p.total_us > 0 ? p.dram_bytes / p.total_us * 1e-3 : 0), "", ""});
  return t;
}

Table op_summary_table(const sim::Prediction& p) {
  Table t({{"op"}, {"kernels", Align::right}, {"time", Align::right}, {"share", Align::right}});
  std::map<std::string, int> counts;
  for (const auto& k : p.kernels) counts[std::string(k.op)]++;
  const double total = p.total_us;
  for (const auto& [op, us] : p.time_by_op())
    t.add_row({op, op == sim::kIdleCategory ? "-" : std::to_string(counts[op]), duration(us),
               percent(total > 0 ? us / total : 0)});
  t.add_separator();
  t.add_row({"total", std::to_string(p.kernels.size()), duration(total), percent(total > 0 ? 1.0 : 0)});
  return t;
}

std::string prediction_summary(const sim::Prediction& p) {
  std::string s = p.workload + " on " + p.gpu + " (" + std::string(wl::launch_mode_name(p.launch)) + "): " +
                  duration(p.total_us) + " total; GPU busy " + duration(p.gpu_busy_us) + ", idle " +
                  duration(p.gpu_idle_us()) + "; " + tflops(p.total_us > 0 ? p.flops / p.total_us * 1e-6 : 0) +
                  ", " + bandwidth(p.total_us > 0 ? p.dram_bytes / p.total_us * 1e-3 : 0) + " of DRAM traffic\n";
  return s;
}

Json prediction_json(const hw::GpuSpec& gpu, const sim::Prediction& p) {
  Json root = Json::object();
  root.set("gpu", p.gpu);
  root.set("workload", p.workload);
  root.set("launch", std::string(wl::launch_mode_name(p.launch)));
  root.set("total_us", p.total_us);
  root.set("gpu_busy_us", p.gpu_busy_us);
  root.set("gpu_idle_us", p.gpu_idle_us());
  root.set("host_us", p.host_us);
  root.set("flops", p.flops);
  root.set("dram_bytes", p.dram_bytes);
  const auto shares = sim::attribute_time(p);
  Json kernels = Json::array();
  for (size_t i = 0; i < p.kernels.size(); ++i) {
    const auto& k = p.kernels[i];
    const auto& op = *k.timing;
    Json j = Json::object();
    j.set("name", k.name);
    j.set("op", k.op);
    j.set("shape", k.shape);
    j.set("stream", k.stream);
    j.set("start_us", k.scheduled.start_us);
    j.set("end_us", k.scheduled.end_us);
    j.set("duration_us", op.duration_us);
    j.set("attributed_us", shares.kernel_us[i]);
    j.set("bound", std::string(sim::bound_name(op.bound)));
    j.set("flops", op.flops);
    j.set("dram_bytes", op.dram_bytes);
    j.set("achieved_tflops", achieved_tflops(op));
    j.set("achieved_gbps", achieved_gbps(op));
    j.set("kernel", op.option);
    j.set("kernels_launched", static_cast<long long>(op.kernels.size()));
    j.set("overhead_us", op.overhead_us);
    j.set("sol", sol_json(kernel_sol(gpu, k)));
    j.set("host_begin_us", k.host_begin_us);
    j.set("issue_us", k.scheduled.issue_us);
    j.set("host_us", sim::total(p.host_cost(k)));
    kernels.push(std::move(j));
  }
  root.set("kernels", std::move(kernels));
  Json by_op = Json::object();
  for (const auto& [op, us] : shares.by_op) by_op.set(op, us);
  root.set("time_by_op_us", std::move(by_op));
  Json by_bound = Json::object();
  for (const auto& [b, us] : shares.by_bound) by_bound.set(b, us);
  root.set("time_by_bound_us", std::move(by_bound));
  return root;
}

Table kernel_csv_table(const hw::GpuSpec& gpu, const sim::Prediction& p) {
  Table t({{"gpu"},
           {"workload"},
           {"name"},
           {"op"},
           {"shape"},
           {"stream"},
           {"start_us"},
           {"end_us"},
           {"duration_us"},
           {"attributed_us"},
           {"bound"},
           {"flops"},
           {"dram_bytes"},
           {"achieved_tflops"},
           {"achieved_gbps"},
           {"sol_pipe"},
           {"sol_compute_pct"},
           {"sol_memory_pct"},
           {"sol_bound_pct"},
           {"host"},
           {"host_begin_us"},
           {"issue_us"},
           {"host_us"},
           {"host_bound"}});
  const auto shares = sim::attribute_time(p);
  for (size_t i = 0; i < p.kernels.size(); ++i) {
    const auto& k = p.kernels[i];
    const auto& op = *k.timing;
    const auto sol = kernel_sol(gpu, k);
    t.add_row({p.gpu, p.workload, k.name, std::string(k.op), std::string(k.shape), std::to_string(k.stream), format_number(k.scheduled.start_us, 9),
               format_number(k.scheduled.end_us, 9), format_number(op.duration_us, 9),
               format_number(shares.kernel_us[i], 9),
               std::string(sim::bound_name(op.bound)), format_number(op.flops, 12), format_number(op.dram_bytes, 12),
               format_number(achieved_tflops(op), 6), format_number(achieved_gbps(op), 6), sol.pipe,
               format_number(sol.compute_pct, 4), format_number(sol.memory_pct, 4), format_number(sol.bound_pct, 4), p.host,
               format_number(k.host_begin_us, 9), format_number(k.scheduled.issue_us, 9),
               format_number(sim::total(p.host_cost(k)), 9), p.host_bound() ? "true" : "false"});
  }
  return t;
}

Report prediction_report(const hw::GpuSpec& gpu, const sim::Prediction& p, const ModelRun* run,
                         const std::vector<HostAlternative>* alternatives) {
  Report r;
  r.title = p.workload + " on " + p.gpu;
  std::string headline = prediction_summary(p);
  headline.pop_back();
  r.summary.push_back(headline);
  r.summary.push_back(host_summary(p));
  if (run) {
    std::string model = model_summary(*run, p);
    size_t start = 0;
    for (size_t end; (end = model.find('\n', start)) != std::string::npos; start = end + 1)
      r.summary.push_back(model.substr(start, end - start));
    r.sections.push_back({"Memory", "", memory_table(*run)});
  }
  const bool long_listing = p.kernels.size() > 60;
  Section kernels{"Kernels", "", kernel_table(gpu, p)};
  kernels.table_in_text = !long_listing;
  if (long_listing)
    kernels.text = std::to_string(p.kernels.size()) + " kernels; the text listing leaves them out (--format csv or json "
                                                      "lists them, and so does this section in Markdown and HTML).";
  r.sections.push_back(kernels);
  r.sections.push_back({"Time by op", "", op_summary_table(p)});
  const double items = run ? run->model.items : 1;
  const std::vector<HostAlternative> none;
  for (auto& s : host_sections(p, items, alternatives ? *alternatives : none)) r.sections.push_back(std::move(s));
  r.charts.push_back(roofline_chart(gpu, &p, "roofline"));
  r.charts.push_back(time_by_op_chart(p, "time-by-op"));
  r.charts.push_back(time_by_bound_chart(p, "time-by-bound"));
  r.charts.push_back(timeline_chart(p, "timeline"));
  r.csv = kernel_csv_table(gpu, p);
  Json j = prediction_json(gpu, p);
  if (run) {
    j.set("model", run->model.workload.name());
    j.set("memory", memory_json(*run));
    j.set("throughput", throughput_json(*run, p));
  }
  j.set("host", host_json(p, items, alternatives ? *alternatives : none));
  r.json = j;
  r.inputs = {{"GPU", gpu.name + " (" + gpu.id + ", " + gpu.origin + ")"},
              {"workload", p.workload + ", " + std::to_string(p.kernels.size()) + " kernels"},
              {"launch", std::string(wl::launch_mode_name(p.launch))},
              {"SMs", std::to_string(gpu.sm.count) + " at " + fixed(gpu.sm.sustained_clock_mhz, 0) + " MHz"},
              {"DRAM", bandwidth(gpu.memory.bandwidth_gbps) + ", " + fixed(gpu.memory.capacity_gb, 0) + " GB"},
              {"L2", fixed(gpu.cache.l2_mb, 0) + " MB, " + bandwidth(gpu.cache.l2_bandwidth_gbps)}};
  std::string roofs;
  for (const auto& [t, tf] : gpu.compute.tensor_tflops)
    roofs += (roofs.empty() ? "" : ", ") + std::string(to_string(t)) + " " + sig3(tf);
  r.inputs.emplace_back("tensor TFLOP/s (dense)", roofs);
  r.inputs.emplace_back("launch", "kernel " + duration(gpu.launch.kernel_us) + ", in a graph " +
                                      duration(gpu.launch.graph_kernel_us));
  r.inputs.emplace_back("host", p.host);
  return r;
}

}  // namespace gpucast::reports
