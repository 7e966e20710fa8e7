#include "reports/prediction_report.h"

#include "reports/units.h"

namespace gpucast::reports {
namespace {

double achieved_tflops(const sim::OpTiming& t) { return t.duration_us > 0 ? t.flops / t.duration_us * 1e-6 : 0; }
double achieved_gbps(const sim::OpTiming& t) { return t.duration_us > 0 ? t.dram_bytes / t.duration_us * 1e-3 : 0; }

}  // namespace

Table kernel_table(const sim::Prediction& p) {
  Table t({{"kernel"},
           {"op"},
           {"shape"},
           {"start", Align::right},
           {"duration", Align::right},
           {"TFLOP/s", Align::right},
           {"GB/s", Align::right},
           {"bound"}});
  for (const auto& k : p.kernels) {
    const auto& op = *k.timing;
    t.add_row({k.name, k.op, k.shape, duration(k.scheduled.start_us), duration(op.duration_us),
               sig3(achieved_tflops(op)), sig3(achieved_gbps(op)), std::string(sim::bound_name(op.bound))});
  }
  t.add_separator();
  t.add_row({"total", "", std::to_string(p.kernels.size()) + " kernels, " + std::string(wl::launch_mode_name(p.launch)),
             "", duration(p.total_us), sig3(p.total_us > 0 ? p.flops / p.total_us * 1e-6 : 0),
             sig3(p.total_us > 0 ? p.dram_bytes / p.total_us * 1e-3 : 0), ""});
  return t;
}

Table op_summary_table(const sim::Prediction& p) {
  Table t({{"op"}, {"kernels", Align::right}, {"time", Align::right}, {"share", Align::right}});
  std::map<std::string, int> counts;
  for (const auto& k : p.kernels) counts[k.op]++;
  double sum = 0;
  const auto by_op = p.time_by_op();
  for (const auto& [op, us] : by_op) sum += us;
  for (const auto& [op, us] : by_op)
    t.add_row({op, std::to_string(counts[op]), duration(us), percent(sum > 0 ? us / sum : 0)});
  return t;
}

std::string prediction_summary(const sim::Prediction& p) {
  std::string s = p.workload + " on " + p.gpu + " (" + std::string(wl::launch_mode_name(p.launch)) + "): " +
                  duration(p.total_us) + " total; GPU busy " + duration(p.gpu_busy_us) + ", idle " +
                  duration(p.gpu_idle_us()) + "; " + tflops(p.total_us > 0 ? p.flops / p.total_us * 1e-6 : 0) +
                  ", " + bandwidth(p.total_us > 0 ? p.dram_bytes / p.total_us * 1e-3 : 0) + " of DRAM traffic\n";
  return s;
}

Json prediction_json(const sim::Prediction& p) {
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
  Json kernels = Json::array();
  for (const auto& k : p.kernels) {
    const auto& op = *k.timing;
    Json j = Json::object();
    j.set("name", k.name);
    j.set("op", k.op);
    j.set("shape", k.shape);
    j.set("stream", k.stream);
    j.set("start_us", k.scheduled.start_us);
    j.set("end_us", k.scheduled.end_us);
    j.set("duration_us", op.duration_us);
    j.set("bound", std::string(sim::bound_name(op.bound)));
    j.set("flops", op.flops);
    j.set("dram_bytes", op.dram_bytes);
    j.set("achieved_tflops", achieved_tflops(op));
    j.set("achieved_gbps", achieved_gbps(op));
    j.set("kernel", op.option);
    j.set("kernels_launched", static_cast<long long>(op.kernels.size()));
    j.set("overhead_us", op.overhead_us);
    kernels.push(std::move(j));
  }
  root.set("kernels", std::move(kernels));
  Json by_op = Json::object();
  for (const auto& [op, us] : p.time_by_op()) by_op.set(op, us);
  root.set("time_by_op_us", std::move(by_op));
  Json by_bound = Json::object();
  for (const auto& [b, us] : p.time_by_bound()) by_bound.set(b, us);
  root.set("time_by_bound_us", std::move(by_bound));
  return root;
}

Table kernel_csv_table(const sim::Prediction& p) {
  Table t({{"gpu"},
           {"workload"},
           {"name"},
           {"op"},
           {"shape"},
           {"stream"},
           {"start_us"},
           {"end_us"},
           {"duration_us"},
           {"bound"},
           {"flops"},
           {"dram_bytes"},
           {"achieved_tflops"},
           {"achieved_gbps"}});
  for (const auto& k : p.kernels) {
    const auto& op = *k.timing;
    t.add_row({p.gpu, p.workload, k.name, k.op, k.shape, std::to_string(k.stream), format_number(k.scheduled.start_us, 9),
               format_number(k.scheduled.end_us, 9), format_number(op.duration_us, 9),
               std::string(sim::bound_name(op.bound)), format_number(op.flops, 12), format_number(op.dram_bytes, 12),
               format_number(achieved_tflops(op), 6), format_number(achieved_gbps(op), 6)});
  }
  return t;
}

}  // namespace gpucast::reports
