#include "reports/parallel_report.h"

#include <algorithm>
#include <variant>

#include "models/collective_model.h"
#include "reports/units.h"

namespace gpucast::reports {

double ParallelRun::tokens_per_s() const {
  if (!run || step_us <= 0) return 0;
  return run->model.items / (step_us * 1e-6);
}

double ParallelRun::mfu() const {
  if (!run || step_us <= 0 || run->peak_tflops <= 0) return 0;
  return run->model.useful_flops / (step_us * 1e-6) / (run->peak_tflops * 1e12);
}

ParallelRun analyze_parallel(const hw::SystemSpec& system, const wl::Workload& w, const sim::Prediction& p,
                             const ModelRun* run, const wl::Parallelism& layout) {
  ParallelRun pr;
  pr.system = &system;
  pr.workload = &w;
  pr.run = run;
  pr.layout = layout;
  pr.comm = sim::communication_time(w, p);
  pr.step_us = p.total_us;
  if (run && layout.pp > 1) {
    const auto& m = run->model;
    auto end_before = [&](size_t index) {
      sim::Microseconds t = 0;
      for (size_t i = 0; i < index && i < p.kernels.size(); ++i) t = std::max(t, p.kernels[i].scheduled.end_us);
      return t;
    };
    const size_t tail = m.tail_from > 0 ? m.tail_from : p.kernels.size();
    const sim::Microseconds forward = m.backward_from > 0 ? end_before(m.backward_from) : end_before(tail);
    const sim::Microseconds through_backward = end_before(tail);
    const sim::Microseconds backward = m.backward_from > 0 ? through_backward - forward : 0;
    pr.pipeline = sim::schedule_1f1b(layout.pp, layout.microbatches, forward, backward);
    pr.step_us = pr.pipeline->step_us + (p.total_us - through_backward);
  }
  return pr;
}

Table system_table(const hw::SystemSpec& s) {
  Table t({{"system"}, {"value"}});
  t.add_row({"name", s.name + " (" + s.id + ")"});
  t.add_row({"GPUs", std::to_string(s.nodes) + " node(s) x " + std::to_string(s.gpus_per_node) + " " + s.gpu.name});
  t.add_row({"fabric", std::string(hw::fabric_kind_name(s.fabric.kind)) + " " + s.fabric.generation + ", " +
                           bandwidth(s.fabric.bandwidth_gbps) + " per GPU per direction, domain of " +
                           std::to_string(s.fabric.domain_gpus) + " GPUs" + (s.fabric.nvls ? ", NVLS on" : "")});
  if (s.network.nics_per_node > 0)
    t.add_row({"network", s.network.kind + ", " + std::to_string(s.network.nics_per_node) + " x " +
                              fixed(s.network.nic_gbits, 0) + " Gb/s per node, " + duration(s.network.latency_us) +
                              " per hop"});
  t.add_row({"NCCL", "fixed " + duration(s.nccl.base_latency_us) + ", step " + duration(s.nccl.step_latency_us) +
                         ", ring plateau " + percent(s.nccl.bus_efficiency) + " of line rate, " +
                         std::to_string(s.nccl.channels) + " channels"});
  return t;
}

namespace {
std::string layout_text(const wl::Parallelism& l) {
  std::string s = "TP " + std::to_string(l.tp) + (l.sp ? " (+SP)" : "") + ", PP " + std::to_string(l.pp) + ", DP " +
                  std::to_string(l.dp);
  if (l.zero != wl::Zero::none) s += " (" + std::string(wl::zero_name(l.zero)) + ")";
  if (l.ep > 1) s += ", EP " + std::to_string(l.ep);
  if (l.pp > 1) s += ", " + std::to_string(l.microbatches) + " microbatches";
  return s;
}
}  // namespace

void add_parallel_sections(Report& r, const ParallelRun& pr, const sim::Prediction& p) {
  const auto& sys = *pr.system;
  r.title = p.workload + " on " + sys.id + " (one rank of " + std::to_string(sys.total_gpus()) + " GPUs)";
  const double comm_share = pr.step_us > 0 ? pr.comm.exposed_us / pr.step_us : 0;
  r.summary.push_back("Communication: " + std::to_string(pr.comm.collectives) + " collectives, " +
                      duration(pr.comm.total_us) + " (" + duration(pr.comm.exposed_us) + " exposed, " +
                      duration(pr.comm.overlapped_us) + " overlapped with compute); exposed share of the step " +
                      percent(comm_share));
  if (pr.run) {
    const auto& m = pr.run->model;
    r.summary.push_back("Layout " + layout_text(pr.layout) + " on " + std::to_string(m.world) + " of " +
                        std::to_string(sys.total_gpus()) + " GPUs: step " + duration(pr.step_us) + ", " +
                        sig3(pr.tokens_per_s()) + " tokens/s, MFU " + percent(pr.mfu()) + ", per-GPU memory " +
                        fixed(m.memory.peak() / 1e9, 1) + " of " + fixed(sys.gpu.memory.capacity_gb, 0) + " GB" +
                        (pr.run->fit.fits ? "" : " (DOES NOT FIT)"));
  }
  if (pr.pipeline)
    r.summary.push_back("Pipeline (1F1B): " + std::to_string(pr.layout.pp) + " stages x " +
                        std::to_string(pr.layout.microbatches) + " microbatches, bubble " +
                        percent(pr.pipeline->bubble_fraction) + " of the step");

  r.sections.insert(r.sections.begin(), Section{"System", "", system_table(sys)});
  Table coll({{"collective"},
              {"op"},
              {"bytes", Align::right},
              {"ranks", Align::right},
              {"algorithm"},
              {"time", Align::right},
              {"algbw", Align::right},
              {"busbw", Align::right},
              {"crosses"}});
  Json list = Json::array();
  const auto& kernels = pr.workload->kernels();
  size_t shown = 0;
  for (size_t i = 0; i < kernels.size(); ++i) {
    const auto* c = std::get_if<wl::CollectiveOp>(&kernels[i].op);
    if (!c) continue;
    const auto e = models::estimate_collective(*c, sys);
    if (shown++ < 40)
      coll.add_row({kernels[i].name, std::string(wl::collective_name(c->kind)), bytes(c->bytes),
                    std::to_string(c->ranks), e.algorithm, duration(e.time_us), bandwidth(e.algbw_gbps),
                    bandwidth(e.busbw_gbps), e.crosses_network ? "network" : "fabric"});
    Json j = Json::object();
    j.set("kernel", kernels[i].name);
    j.set("op", std::string(wl::collective_name(c->kind)));
    j.set("bytes", c->bytes);
    j.set("ranks", static_cast<std::int64_t>(c->ranks));
    j.set("algorithm", e.algorithm);
    j.set("time_us", e.time_us);
    j.set("algbw_gbps", e.algbw_gbps);
    j.set("busbw_gbps", e.busbw_gbps);
    list.push(j);
  }
  std::string text;
  if (shown > 40) text = std::to_string(shown) + " collectives; the first 40 are listed (JSON lists all).";
  if (shown > 0) r.sections.insert(r.sections.begin() + 1, Section{"Collectives", text, coll});
  if (pr.pipeline) {
    Table pipe({{"stage", Align::right}, {"busy", Align::right}, {"idle (bubble)", Align::right}, {"program"}});
    for (int s = 0; s < pr.layout.pp; ++s) {
      std::string prog;
      int n = 0;
      for (const auto& seg : pr.pipeline->segments)
        if (seg.stage == s && n++ < 12) prog += (seg.backward ? "B" : "F") + std::to_string(seg.microbatch) + " ";
      if (n > 12) prog += "...";
      pipe.add_row({std::to_string(s), duration(pr.pipeline->busy_us),
                    duration(pr.pipeline->step_us - pr.pipeline->busy_us), prog});
    }
    r.sections.insert(r.sections.begin() + 1,
                      Section{"Pipeline schedule (1F1B)",
                              "Each stage runs the simulated microbatch forward and backward; the step is the last "
                              "stage's end plus the step's tail (gradient reduction, optimizer).",
                              pipe});
  }
  Json j = Json::object();
  j.set("system", sys.id);
  j.set("gpus", static_cast<std::int64_t>(sys.total_gpus()));
  j.set("step_us", pr.step_us);
  Json comm = Json::object();
  comm.set("total_us", pr.comm.total_us);
  comm.set("exposed_us", pr.comm.exposed_us);
  comm.set("overlapped_us", pr.comm.overlapped_us);
  j.set("communication", comm);
  j.set("collectives", list);
  if (pr.run) {
    Json l = Json::object();
    l.set("tp", static_cast<std::int64_t>(pr.layout.tp));
    l.set("pp", static_cast<std::int64_t>(pr.layout.pp));
    l.set("dp", static_cast<std::int64_t>(pr.layout.dp));
    l.set("ep", static_cast<std::int64_t>(pr.layout.ep));
    l.set("sp", pr.layout.sp);
    l.set("microbatches", static_cast<std::int64_t>(pr.layout.microbatches));
    l.set("zero", std::string(wl::zero_name(pr.layout.zero)));
    j.set("layout", l);
    j.set("tokens_per_s", pr.tokens_per_s());
    j.set("mfu", pr.mfu());
    j.set("per_gpu_memory_bytes", pr.run->model.memory.peak());
  }
  if (pr.pipeline) j.set("pipeline_bubble_fraction", pr.pipeline->bubble_fraction);
  r.json.set("multi_gpu", j);
  r.inputs.insert(r.inputs.begin(), {"system", sys.name + " (" + sys.id + ", " + sys.origin + ")"});
}

}  // namespace gpucast::reports
