// `gpucast sweep`: one workload on one GPU over a grid of hardware keys and workload parameters,
// run in parallel, with the bound that dominates at each point.
#include <atomic>
#include <memory>
#include <mutex>
#include <thread>

#include "cli/commands.h"
#include "cli/output.h"
#include "cli/progress_bar.h"
#include "cli/run_summary.h"
#include "common/errors.h"
#include "common/limits.h"
#include "reports/units.h"
#include "reports/whatif_charts.h"
#include "cli/sweep_grid.h"

namespace gpucast::cli {
namespace {
using reports::Json;
using reports::Table;

struct SweepOptions {
  std::string gpu;
  std::vector<std::string> vary;
  std::vector<std::string> sets;
  WorkloadSourceOptions source;
  unsigned threads = 0;
  size_t max_points = cli::kDefaultMaxSweepPoints;
  OutputOptions out;
};

struct PointResult {
  std::vector<std::string> values;
  reports::RunSummary summary;
  std::string error;  // the point could not run (a kernel does not fit the changed GPU, ...)
};

wl::GenerateOptions with_workload_values(wl::GenerateOptions g, const std::vector<cli::SweepAxis>& axes,
                                         const std::vector<std::string>& values) {
  for (size_t i = 0; i < axes.size(); ++i) {
    if (axes[i].kind != cli::AxisKind::workload) continue;
    const auto& key = axes[i].key;
    const auto& v = values[i];
    // parse_vary() checked every value and its range.
    const long n = key == "dtype" || key == "launch" ? 0 : static_cast<long>(parse_int64(v).value_or(0));
    if (key == "batch") g.batch = n;
    else if (key == "seq") g.seq = n;
    else if (key == "context") g.context = n;
    else if (key == "layers") g.layers = static_cast<int>(n);
    else if (key == "dtype") g.dtype = *parse_dtype(v);
    else if (key == "launch") g.launch = v == "graph" ? wl::LaunchMode::graph : wl::LaunchMode::eager;
  }
  return g;
}

class SweepRunner {
 public:
  SweepRunner(const AppContext& ctx, const SweepOptions& o, const std::vector<cli::SweepAxis>& axes,
              const ResolvedWorkload& base)
      : ctx_(ctx), o_(o), axes_(axes), base_(base), base_overrides_(gpu_overrides(o.sets)), host_(load_host(ctx, o.source, o.sets)) {
    for (const auto& a : axes_) {
      has_hardware_ |= a.kind == cli::AxisKind::hardware;
      has_workload_ |= a.kind == cli::AxisKind::workload;
    }
    if (!has_hardware_) base_gpu_ = ctx_.catalog.load(o_.gpu, base_overrides_);
  }

  PointResult run(size_t index) const {
    PointResult r;
    r.values = cli::grid_point(axes_, index);
    try {
      hw::GpuSpec gpu = base_gpu_ ? *base_gpu_ : load_gpu(r.values);
      const ResolvedWorkload w = has_workload_ ? regenerate(base_, with_workload_values(base_.options, axes_, r.values))
                                               : base_;
      sim::Simulator simulator(gpu, host_);
      const auto p = simulator.predict(w.workload);
      r.summary = summarize(w, gpu, p);
    } catch (const Error& e) {
      r.error = e.what();
    } catch (const std::bad_alloc&) {
      r.error = "out of memory";
    } catch (const std::exception& e) {
      r.error = std::string("internal error: ") + e.what();
    }
    return r;
  }

 private:
  hw::GpuSpec load_gpu(const std::vector<std::string>& values) const {
    auto overrides = base_overrides_;
    for (size_t i = 0; i < axes_.size(); ++i)
      if (axes_[i].kind == cli::AxisKind::hardware) overrides.push_back(hw::make_override(axes_[i].key, values[i]));
    return ctx_.catalog.load(o_.gpu, overrides);
  }

  const AppContext& ctx_;
  const SweepOptions& o_;
  const std::vector<cli::SweepAxis>& axes_;
  const ResolvedWorkload& base_;
  std::vector<hw::Override> base_overrides_;
  hw::HostSpec host_;
  std::optional<hw::GpuSpec> base_gpu_;
  bool has_hardware_ = false;
  bool has_workload_ = false;
};

std::vector<PointResult> run_all(const SweepRunner& runner, size_t points, unsigned threads) {
  std::vector<PointResult> results(points);
  std::atomic<size_t> next{0};
  ProgressBar bar("sweep points", points);
  auto worker = [&] {
    for (size_t i = next++; i < points; i = next++) {
      results[i] = runner.run(i);
      bar.advance();
    }
  };
  std::vector<std::thread> pool;
  const unsigned n = std::max(1u, std::min<unsigned>(threads, unsigned(points)));
  for (unsigned t = 1; t < n; ++t) pool.emplace_back(worker);
  worker();
  for (auto& t : pool) t.join();
  bar.finish();
  return results;
}

// Where the dominant bound changes along the sweep's order, e.g. "memory -> compute between
// batch=8 and batch=16": the point where a workload turns from one limit to another.
std::vector<std::string> bound_changes(const std::vector<cli::SweepAxis>& axes, const std::vector<PointResult>& rs) {
  std::vector<std::string> out;
  const size_t last = axes.size() - 1;
  const size_t run = axes[last].values.size();
  auto label = [&](const PointResult& p) {
    std::string s;
    for (size_t i = 0; i < axes.size(); ++i) s += (i ? ", " : "") + axes[i].key + "=" + p.values[i];
    return axes.size() > 1 ? "(" + s + ")" : s;
  };
  for (size_t i = 1; i < rs.size(); ++i) {
    if (i % run == 0) continue;  // the last axis restarts: not a neighbour
    const auto& a = rs[i - 1];
    const auto& b = rs[i];
    if (!a.error.empty() || !b.error.empty() || a.summary.bound == b.summary.bound) continue;
    out.push_back(a.summary.bound + " -> " + b.summary.bound + " between " + label(a) + " and " + label(b));
    if (out.size() == 20) break;
  }
  return out;
}

reports::Report build_report(const SweepOptions& o, const std::vector<cli::SweepAxis>& axes,
                             const std::vector<PointResult>& rs, const std::string& gpu_id,
                             const std::string& workload) {
  reports::Report r;
  r.title = "Sweep of " + workload + " on " + gpu_id + ": " + std::to_string(rs.size()) + " points";
  size_t failed = 0;
  for (const auto& p : rs) failed += !p.error.empty();
  if (failed) r.summary.push_back(std::to_string(failed) + " points could not run (see the error column).");
  const auto changes = bound_changes(axes, rs);
  if (changes.empty()) r.summary.push_back("The dominant bound does not change along the sweep.");
  for (const auto& c : changes) r.summary.push_back("Bound changes: " + c);

  const std::string tp_unit = [&] {
    for (const auto& p : rs)
      if (p.error.empty()) return p.summary.items_name.empty() ? std::string("runs/s") : p.summary.items_name;
    return std::string("runs/s");
  }();
  // Throughput relative to the first point: a speedup for hardware sweeps, and the gain from
  // batching for batch sweeps.
  auto throughput = [](const reports::RunSummary& s) { return s.items_name.empty() ? s.results_per_s : s.items_per_s; };
  const double first_tp = rs.empty() || !rs.front().error.empty() ? 0 : throughput(rs.front().summary);

  std::vector<reports::Column> cols;
  for (const auto& a : axes) cols.push_back({a.key, reports::Align::right});
  for (const auto& c : std::vector<reports::Column>{{"time", reports::Align::right},
                                                    {tp_unit, reports::Align::right},
                                                    {"vs first", reports::Align::right},
                                                    {"fits"},
                                                    {"bound"},
                                                    {"compute", reports::Align::right},
                                                    {"memory", reports::Align::right},
                                                    {"latency", reports::Align::right},
                                                    {"launch", reports::Align::right},
                                                    {"host", reports::Align::right}})
    cols.push_back(c);
  Table t(cols);
  std::vector<reports::Column> csv_cols;
  for (const auto& a : axes) csv_cols.push_back({a.key});
  for (const char* c : {"time_us", "throughput", "throughput_unit", "results_per_s", "fits", "peak_gb", "bound",
                        "compute_share", "memory_share", "latency_share", "launch_share", "host_share", "error"})
    csv_cols.push_back({c});
  Table csv(csv_cols);
  Json points = Json::array();
  auto share = [](const reports::RunSummary& s, const char* k) {
    const auto it = s.bound_share.find(k);
    return it == s.bound_share.end() ? 0.0 : it->second;
  };
  auto num = [](double v) { return reports::format_number(v); };
  for (const auto& p : rs) {
    const auto& s = p.summary;
    const double tp = throughput(s);
    std::vector<std::string> row = p.values;
    std::vector<std::string> crow = p.values;
    Json pj = Json::object();
    Json vals = Json::object();
    for (size_t i = 0; i < axes.size(); ++i) vals.set(axes[i].key, p.values[i]);
    pj.set("values", vals);
    if (!p.error.empty()) {
      for (int i = 0; i < 10; ++i) row.push_back(i == 4 ? "error" : "-");
      for (int i = 0; i < 12; ++i) crow.push_back("");
      crow.push_back(p.error);
      pj.set("error", p.error);
    } else {
      for (const auto& c : {reports::duration(s.time_us), reports::sig3(tp),
                            first_tp > 0 ? reports::fixed(tp / first_tp, 2) + "x" : "-",
                            std::string(s.fits ? "yes" : "NO"), s.bound})
        row.push_back(c);
      for (const char* k : {"compute", "memory", "latency", "launch", "host"})
        row.push_back(reports::fixed(100 * share(s, k), 0) + "%");
      for (const auto& c : {num(s.time_us), num(tp), tp_unit, num(s.results_per_s), std::string(s.fits ? "true" : "false"),
                            num(s.peak_gb), s.bound})
        crow.push_back(c);
      for (const char* k : {"compute", "memory", "latency", "launch", "host"}) crow.push_back(num(share(s, k)));
      crow.push_back("");
      pj.set("time_us", s.time_us);
      pj.set("throughput", tp);
      pj.set("throughput_unit", tp_unit);
      pj.set("results_per_s", s.results_per_s);
      pj.set("result_unit", s.result_name);
      pj.set("fits", s.fits);
      pj.set("peak_gb", s.peak_gb);
      pj.set("bound", s.bound);
      Json bs = Json::object();
      for (const auto& [k, v] : s.bound_share) bs.set(k, v);
      pj.set("bound_share", bs);
      pj.set("error", Json());
    }
    t.add_row(row);
    csv.add_row(crow);
    points.push(pj);
  }
  r.sections.push_back({"", "", t});
  r.csv = csv;
  std::vector<reports::SweepPointView> views;
  for (const auto& p : rs) {
    reports::SweepPointView v{p.values, std::nullopt, std::nullopt, p.summary.bound};
    if (p.error.empty()) v.time_us = p.summary.time_us, v.throughput = throughput(p.summary);
    views.push_back(v);
  }
  std::vector<std::string> keys;
  for (const auto& a : axes) keys.push_back(a.key);
  r.charts = reports::sweep_charts(keys, views, tp_unit);
  Json j = Json::object();
  j.set("gpu", gpu_id);
  j.set("workload", workload);
  Json ax = Json::array();
  for (const auto& a : axes) {
    Json aj = Json::object();
    aj.set("key", a.key);
    aj.set("kind", a.kind == cli::AxisKind::hardware ? "hardware" : "workload");
    Json vs = Json::array();
    for (const auto& v : a.values) vs.push(v);
    aj.set("values", vs);
    ax.push(aj);
  }
  j.set("axes", ax);
  j.set("points", points);
  r.json = j;
  r.inputs.emplace_back("gpu", gpu_id);
  r.inputs.emplace_back("workload", workload);
  for (const auto& v : o.vary) r.inputs.emplace_back("--vary", v);
  for (const auto& s : o.sets) r.inputs.emplace_back("--set", s);
  return r;
}
}  // namespace

void add_sweep_command(CLI::App& app, AppContext& ctx) {
  auto o = std::make_shared<SweepOptions>();
  auto* cmd = app.add_subcommand("sweep", "Predict over a grid of hardware keys and workload parameters");
  cmd->add_option("--gpu", o->gpu, "catalog id or .toml file")->required();
  cmd->add_option("--vary", o->vary,
                  "KEY=START:STOP:STEP, KEY=START:STOP:*FACTOR or KEY=V1,V2,... over a hardware key "
                  "(memory.bandwidth_gbps, cache.l2_mb, sm.count, compute.tensor_tflops.bf16, ...) or "
                  "batch, seq, context, dtype, layers, launch (repeatable: the grid is every combination)")
      ->required();
  cmd->add_option("--set", o->sets, "override a hardware key at every point: key.path=value (repeatable)");
  add_workload_source_options(cmd, o->source);
  cmd->add_option("--threads", o->threads, "worker threads (default: every core)")->check(CLI::Range(0u, 1024u));
  cmd->add_option("--max-points", o->max_points, "the most grid points a sweep may run (default 10000)")
      ->check(CLI::Range(size_t{1}, cli::kMaxSweepPoints));
  add_output_options(cmd, o->out);
  cmd->callback([o, &ctx] {
    const auto axes = cli::parse_vary_all(o->vary, o->max_points);
    const auto base = resolve_workload(o->source, ctx.catalog, *ctx.outputs);
    for (const auto& a : axes)
      if (a.kind == cli::AxisKind::workload && !base.config)
        throw UsageError("--vary " + a.key + " needs --model (a workload file has fixed shapes)");
    const SweepRunner runner(ctx, *o, axes, base);
    const unsigned threads = o->threads ? o->threads : std::max(1u, std::thread::hardware_concurrency());
    const auto results = run_all(runner, cli::grid_size(axes), threads);
    write_report(ctx, build_report(*o, axes, results, o->gpu, base.workload.name()), o->out);
  });
}

}  // namespace gpucast::cli
