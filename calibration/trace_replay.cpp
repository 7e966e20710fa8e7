#include "calibration/trace_replay.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "calibration/validation_output.h"
#include "reports/prediction_report.h"
#include "reports/units.h"
#include "sim/warm_l2.h"
#include "workloads/trace/kernel_name.h"

namespace gpucast::calib {
namespace {

using reports::Align;
using reports::Json;
using reports::Table;

std::string trimmed(const std::string& s, size_t n) { return s.size() > n ? s.substr(0, n - 3) + "..." : s; }

struct Unrecognized {
  std::string kernel, cpu_op, bound;
  int count = 0;
  double measured_us = 0;
};

std::vector<Unrecognized> unrecognized(const trace::TraceImport& t) {
  std::map<std::string, Unrecognized> by_name;
  const auto& ks = t.workload.kernels();
  for (size_t i = 0; i < ks.size(); ++i) {
    const auto& rec = t.records[i];
    if (rec.recognized) continue;
    auto& u = by_name[rec.trace_kernel];
    u.kernel = rec.trace_kernel;
    if (u.cpu_op.empty()) u.cpu_op = rec.cpu_op.empty() ? "(no CPU op)" : rec.cpu_op;
    if (const auto* op = std::get_if<wl::TracedOp>(&ks[i].op)) u.bound = std::string(wl::traced_bound_name(op->bound));
    u.count += rec.kernels;
    u.measured_us += rec.measured_us;
  }
  std::vector<Unrecognized> out;
  for (auto& [_, u] : by_name) out.push_back(u);
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.measured_us > b.measured_us; });
  return out;
}

double share(double part, double whole) { return whole > 0 ? part / whole : 0; }

}  // namespace

ValidationReport trace_validation(const trace::TraceImport& t, const sim::Prediction& p, const device::Device& gpu) {
  ValidationReport r;
  r.gpu_measured = t.source_gpu + (t.device_name.empty() ? "" : " (" + t.device_name + ")");
  r.gpu_predicted = p.gpu;
  r.measured_on = t.workload.origin() + ", " + t.window.label;
  r.method = "PyTorch profiler trace: each kernel's GPU time (Kineto dur) against gpucast's predicted execution, "
             "floored at the trace's shortest activity of its kind (plus a memory round trip for a kernel that loads)";
  std::map<std::string, std::vector<double>> errors;
  for (size_t i = 0; i < p.kernels.size(); ++i) {
    const auto& rec = t.records[i];
    if (!rec.recognized || rec.measured_us <= 0) continue;
    ValidationCase c;
    c.id = p.kernels[i].name;
    c.family = std::string(p.kernels[i].op);
    c.split = "test";
    c.op = std::string(p.kernels[i].op);
    c.shape = std::string(p.kernels[i].shape);
    c.measured_us = rec.measured_us;
    // A profiler never sees a kernel shorter than the GPU's floor: the trace's shortest activity of
    // its kind, per trace kernel of the group; a kernel that loads its input waits one round trip
    // more (to the L2 when its input is warm there) than the shortest, which only stores.
    const auto* timing = p.kernels[i].timing;
    const double load_wait = sim::input_bytes(t.workload.kernels()[i].op) <= 0 ? 0
                             : sim::input_warm(*timing)                     ? gpu.latency().l2_round
                                                                            : gpu.latency().dram;
    c.predicted_us = std::max(timing->exec_us, rec.floor_us + load_wait * rec.kernels);
    c.option = p.kernels[i].timing->option;
    c.bound = std::string(sim::bound_name(p.kernels[i].timing->bound));
    c.measured_kernels = trace::short_kernel_name(rec.trace_kernel) + (rec.kernels > 1 ? " (+" + std::to_string(rec.kernels - 1) + ")" : "");
    const double e = c.error();
    errors[c.family].push_back(e);
    errors["overall"].push_back(e);
    r.cases.push_back(std::move(c));
  }
  for (const auto& [family, list] : errors) {
    r.stats[family]["test"] = summarize(list);
    r.stats[family]["all"] = summarize(list);
  }
  return r;
}

reports::Report trace_report(const hw::GpuSpec& gpu, const sim::Prediction& p, const trace::TraceImport& t,
                             bool same_gpu, size_t worst) {
  reports::Report r = reports::prediction_report(gpu, p, nullptr);
  r.title = "Trace " + t.workload.name() + " (" + t.window.label + ") on " + p.gpu;
  const double recognized = share(t.recognized_gpu_us, t.traced_gpu_us);
  size_t recognized_kernels = 0;
  for (const auto& rec : t.records)
    if (rec.recognized) recognized_kernels += static_cast<size_t>(rec.kernels);
  std::vector<std::string> lines;
  lines.push_back("Trace: " + t.workload.origin() + ", " + t.window.label + ", recorded on " +
                  (t.device_name.empty() ? "an unnamed GPU" : t.device_name) + " (source " + t.source_gpu + "); " +
                  std::to_string(t.trace_kernels) + " trace kernels -> " + std::to_string(t.records.size()) +
                  " workload kernels" + (t.shapes ? "" : "; no input shapes (record_shapes=False): every kernel scaled"));
  lines.push_back("Re-predicted by op models: " + reports::percent(recognized) + " of the traced GPU time (" +
                  std::to_string(recognized_kernels) + " kernels); scaled from the source by bound class: " +
                  reports::percent(1 - recognized));
  const double measured = t.measured_step_us;
  std::string step = "Traced step on " + t.source_gpu + ": " + reports::duration(measured) + " (GPU busy " +
                     reports::duration(t.measured_gpu_busy_us) + ")";
  if (same_gpu)
    step += "; replayed: " + reports::duration(p.total_us) + " (" + (p.total_us >= measured ? "+" : "") +
            reports::percent(share(p.total_us - measured, measured)) + ")";
  lines.push_back(step);
  const double idle = share(p.gpu_idle_us(), p.total_us);
  lines.push_back(std::string(idle > 0.3 ? "Host-bound" : "GPU-bound") + " on " + p.gpu + ": GPU idle " +
                  reports::percent(idle) + " of the step, host waiting at " + std::to_string(t.syncs) +
                  " sync point(s) " + reports::duration(p.host_sync_wait_us));
  // The replayed host is the traced one, and a profiled host is slower than an unprofiled one: each
  // recorded op pays the profiler's bookkeeping (more with record_shapes). A step host-bound in its
  // trace may be GPU-bound without the profiler (docs/accuracy.md, "Held-out workloads": a ResNet-50
  // training step 53.9 ms traced, 19.0 ms without the profiler), so say how low it can go.
  if (idle > 0.3)
    lines.push_back(
        "Note: the replayed host is the traced one, profiler overhead included (about 2-14 us per "
        "recorded op on the machines measured); without the profiler this step may run faster, down "
        "to its GPU time here (" +
        reports::duration(p.total_us - p.gpu_idle_us()) + "): --host-speed N replays a host N times as fast");
  r.summary.insert(r.summary.begin() + 1, lines.begin(), lines.end());

  // Coverage by kernel family.
  std::map<std::string, std::pair<double, double>> by_family;  // family -> (re-predicted, scaled) us
  std::map<std::string, int> count_family;
  for (const auto& rec : t.records) {
    auto& f = by_family[rec.kernel_family];
    (rec.recognized ? f.first : f.second) += rec.measured_us;
    count_family[rec.kernel_family] += rec.kernels;
  }
  Table cov({{"kernel family"}, {"kernels", Align::right}, {"traced GPU time", Align::right},
             {"share", Align::right}, {"op models", Align::right}, {"scaled", Align::right}});
  Json cov_json = Json::array();
  for (const auto& [family, us] : by_family) {
    const double total = us.first + us.second;
    cov.add_row({family, std::to_string(count_family[family]), reports::duration(total),
                 reports::percent(share(total, t.traced_gpu_us)), reports::percent(share(us.first, total)),
                 reports::percent(share(us.second, total))});
    Json f = Json::object();
    f.set("family", family);
    f.set("kernels", count_family[family]);
    f.set("measured_us", total);
    f.set("re_predicted_us", us.first);
    f.set("scaled_us", us.second);
    cov_json.push(f);
  }
  cov.add_separator();
  cov.add_row({"total", std::to_string(t.trace_kernels), reports::duration(t.traced_gpu_us), "100.0%",
               reports::percent(recognized), reports::percent(1 - recognized)});
  std::vector<reports::Section> extra;
  extra.push_back({"Trace coverage", "Traced GPU time by kernel family (from kernel names), re-predicted by op models "
                                     "or scaled from the source GPU.", cov});

  const auto unknown = unrecognized(t);
  Table un({{"kernel"}, {"CPU op"}, {"count", Align::right}, {"traced time", Align::right}, {"share", Align::right},
            {"scaled as", Align::right}});
  Json un_json = Json::array();
  for (size_t i = 0; i < unknown.size(); ++i) {
    const auto& u = unknown[i];
    if (i < 25)
      un.add_row({trimmed(u.kernel, 70), trimmed(u.cpu_op, 40), std::to_string(u.count), reports::duration(u.measured_us),
                  reports::percent(share(u.measured_us, t.traced_gpu_us)), u.bound + "-bound"});
    Json j = Json::object();
    j.set("kernel", u.kernel);
    j.set("cpu_op", u.cpu_op);
    j.set("count", u.count);
    j.set("measured_us", u.measured_us);
    j.set("share", share(u.measured_us, t.traced_gpu_us));
    j.set("scaled_as", u.bound);
    un_json.push(j);
  }
  if (!unknown.empty())
    extra.push_back({"Unrecognized kernels (scaled)",
                     std::to_string(unknown.size()) + " distinct kernels no op model re-predicts" +
                         (unknown.size() > 25 ? " (the 25 longest; JSON lists all)" : "") + ".",
                     un});

  Json trace = Json::object();
  trace.set("file", t.workload.origin());
  trace.set("window", t.window.label);
  trace.set("device_name", t.device_name);
  trace.set("source_gpu", t.source_gpu);
  trace.set("trace_kernels", static_cast<long>(t.trace_kernels));
  trace.set("workload_kernels", static_cast<long>(t.records.size()));
  trace.set("record_shapes", t.shapes);
  trace.set("measured_step_us", t.measured_step_us);
  trace.set("measured_gpu_busy_us", t.measured_gpu_busy_us);
  trace.set("traced_gpu_us", t.traced_gpu_us);
  trace.set("re_predicted_share", recognized);
  trace.set("scaled_share", 1 - recognized);
  trace.set("host_syncs", static_cast<long>(t.syncs));
  trace.set("stream_waits", static_cast<long>(t.stream_waits));
  trace.set("same_gpu", same_gpu);
  trace.set("coverage", cov_json);
  trace.set("unrecognized", un_json);
  if (same_gpu) {
    trace.set("step_error", share(p.total_us - measured, measured));
    const auto v = trace_validation(t, p, device::Device(gpu));
    const auto doc = validation_document(v, false, worst);
    for (auto& s : doc.sections) extra.push_back({"Replay validation: " + s.heading, s.text, s.table, s.table_in_text});
    for (const auto& line : doc.summary)
      if (line.rfind("MAPE", 0) == 0) r.summary.push_back("Per-kernel (op models, measured vs predicted): " + line);
    for (auto c : doc.charts) {
      c.id = "replay-" + c.id;
      r.charts.push_back(c);
    }
    trace.set("validation", doc.json);
  }
  // Sections after the summary-level ones of the prediction (kernels list stays last-but-charts).
  r.sections.insert(r.sections.begin(), extra.begin(), extra.end());
  r.json.set("trace", trace);

  // CSV: the kernel rows with the trace's measurement beside each.
  Table csv({{"gpu"}, {"workload"}, {"name"}, {"op"}, {"shape"}, {"stream"}, {"start_us"}, {"end_us"},
             {"duration_us"}, {"exec_us"}, {"bound"}, {"measured_us"}, {"re_predicted"}, {"trace_kernels"},
             {"trace_kernel"}, {"cpu_op"}, {"host_delay_us"}, {"measured_start_us"}});
  for (size_t i = 0; i < p.kernels.size(); ++i) {
    const auto& k = p.kernels[i];
    const auto& rec = t.records[i];
    const auto& wk = t.workload.kernels()[i];
    csv.add_row({p.gpu, p.workload, k.name, std::string(k.op), std::string(k.shape), std::to_string(k.stream),
                 reports::format_number(k.scheduled.start_us, 9), reports::format_number(k.scheduled.end_us, 9),
                 reports::format_number(k.timing->duration_us, 9), reports::format_number(k.timing->exec_us, 9),
                 std::string(sim::bound_name(k.timing->bound)), reports::format_number(rec.measured_us, 9),
                 rec.recognized ? "true" : "false", std::to_string(rec.kernels), rec.trace_kernel, rec.cpu_op,
                 reports::format_number(wk.host_delay_us.value_or(0), 9),
                 reports::format_number(rec.measured_start_us, 9)});
  }
  r.csv = csv;
  r.inputs.insert(r.inputs.begin(), {"trace", t.workload.origin() + " (" + t.window.label + ", source " + t.source_gpu + ")"});
  return r;
}

}  // namespace gpucast::calib
