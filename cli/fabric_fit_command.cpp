// `gpucast fabric-fit`: fits a system's NCCL parameters to measured (or published) collective
// times, writes the system profile, and reports predicted vs measured for every point, the held-out
// ones (odd size indices) apart from those fitted (even indices).
#include <cmath>
#include <memory>

#include "calibration/collective_fit.h"
#include "calibration/collective_gpu_fit.h"
#include "cli/commands.h"
#include "cli/output.h"
#include "cli/system_source.h"
#include "models/collective_model.h"
#include "reports/units.h"

namespace gpucast::cli {
namespace {
struct FabricFitOptions {
  std::string results;    // bench_multi.py JSON
  std::string gpu_times;  // bench_multi_probe.py JSON (CUDA-graph times): the two-stage fit
  std::string published;  // CSV of bus bandwidths
  std::string column;     // CSV column
  std::string system;     // base system (id, file or NxGPU)
  int gpus = 0;           // > 0: a node of this many GPUs of the base system
  bool per_op = false;
  double ramp_exponent = 0;  // > 0: fixed
  bool no_fit = false;    // report the base system as is
  std::string profile;    // write the fitted profile here
  std::string profile_name;
  std::vector<std::string> sets;
  OutputOptions out;
};

struct Stats {
  int n = 0;
  double sum = 0, worst = 0;
  void add(double e) {
    ++n;
    sum += std::fabs(e);
    worst = std::max(worst, std::fabs(e));
  }
  [[nodiscard]] std::string text() const {
    if (n == 0) return "no points";
    return "mean |error| " + reports::percent(sum / n) + ", worst " + reports::percent(worst) + " (" +
           std::to_string(n) + " points)";
  }
};
}  // namespace

void add_fabric_fit_command(CLI::App& app, AppContext& ctx) {
  auto o = std::make_shared<FabricFitOptions>();
  auto* cmd = app.add_subcommand("fabric-fit", "Fit a system's collective (NCCL) parameters to measured curves");
  cmd->add_option("--results", o->results, "calibration/runs/bench_multi.py results JSON");
  cmd->add_option("--gpu-times", o->gpu_times,
                  "calibration/runs/bench_multi_probe.py results JSON: fit the GPU curve (gpu latency, plateau, ramp per "
                  "collective) on its CUDA-graph times, then the host floor on --results")
      ->check(CLI::ExistingFile);
  cmd->add_option("--published", o->published, "CSV of published bus bandwidths (collective,ranks,bytes,<columns>)");
  cmd->add_option("--column", o->column, "the CSV column to fit (e.g. h100)");
  cmd->add_option("--system", o->system, "base system: id, .toml file or NxGPU")->required();
  cmd->add_option("--gpus", o->gpus, "a node of this many GPUs (the measured machine)")->check(CLI::PositiveNumber);
  cmd->add_flag("--per-op", o->per_op, "fit the per-op event medians instead of the batched (nccl-tests) times");
  cmd->add_option("--ramp-exponent", o->ramp_exponent, "keep nccl.ramp_exponent at this value; fit only ramp_bytes")
      ->check(CLI::PositiveNumber);
  cmd->add_flag("--no-fit", o->no_fit, "only compare the system as it is against the points");
  cmd->add_option("--profile", o->profile, "write the fitted system profile (TOML) here");
  cmd->add_option("--name", o->profile_name, "name of the written profile");
  cmd->add_option("--set", o->sets, "override a system or GPU key (repeatable)");
  add_output_options(cmd, o->out);
  cmd->callback([o, &ctx] {
    if (o->results.empty() == o->published.empty()) throw UsageError("give exactly one of --results or --published");
    if (!o->published.empty() && o->column.empty()) throw UsageError("--published needs --column");
    if (!o->gpu_times.empty() && o->results.empty()) throw UsageError("--gpu-times needs --results");
    auto sets = o->sets;
    if (o->gpus > 0) {
      sets.push_back("gpus_per_node=" + std::to_string(o->gpus));
      sets.push_back("fabric.domain_gpus=" + std::to_string(o->gpus));
    }
    const auto base = load_system(ctx, o->system, sets);
    const auto points = o->results.empty() ? calib::read_busbw_csv(o->published, o->column)
                                           : calib::read_bench_multi(o->results, !o->per_op);
    const auto gpu_points =
        o->gpu_times.empty() ? std::vector<calib::CollectivePoint>{} : calib::read_probe_graph_times(o->gpu_times);
    calib::CollectiveFit fit;
    if (o->no_fit) fit.system = base;
    else if (!o->gpu_times.empty())
      fit = calib::fit_collectives_two_stage(base, gpu_points, points, o->ramp_exponent > 0 ? o->ramp_exponent : 0.5);
    else
      fit = calib::fit_collectives(base, points,
                                   o->ramp_exponent > 0 ? std::optional<double>(o->ramp_exponent) : std::nullopt);

    reports::Report r;
    r.title = "Collectives on " + base.id + (o->no_fit ? " (as described)" : " (fitted)");
    reports::Table t({{"collective"},
                      {"ranks", reports::Align::right},
                      {"bytes", reports::Align::right},
                      {"set"},
                      {"measured", reports::Align::right},
                      {"predicted", reports::Align::right},
                      {"error", reports::Align::right},
                      {"busbw meas.", reports::Align::right},
                      {"busbw pred.", reports::Align::right}});
    reports::Table csv({{"collective"}, {"ranks"}, {"bytes"}, {"set"}, {"measured_us"}, {"predicted_us"}, {"error"}});
    Stats held_big, held_small, fit_big, fit_small;
    reports::Json rows = reports::Json::array();
    for (const auto& p : points) {
      const double pred = calib::predict_point(fit.system, p);
      const double err = pred / p.time_us - 1;
      ((p.fit ? (p.bytes >= 1 << 20 ? fit_big : fit_small) : (p.bytes >= 1 << 20 ? held_big : held_small))).add(err);
      wl::CollectiveOp op;
      op.kind = *wl::parse_collective(p.collective);
      op.ranks = p.ranks;
      const double factor = models::bus_factor(op.kind, p.ranks);
      t.add_row({p.collective, std::to_string(p.ranks), reports::bytes(p.bytes), p.fit ? "fit" : "held out",
                 reports::duration(p.time_us), reports::duration(pred), reports::fixed(err * 100, 1) + "%",
                 reports::bandwidth(p.bytes * factor / (p.time_us * 1e3)),
                 reports::bandwidth(p.bytes * factor / (pred * 1e3))});
      csv.add_row({p.collective, std::to_string(p.ranks), reports::fixed(p.bytes, 0), p.fit ? "fit" : "held_out",
                   reports::fixed(p.time_us, 3), reports::fixed(pred, 3), reports::fixed(err, 4)});
      reports::Json j = reports::Json::object();
      j.set("collective", p.collective);
      j.set("ranks", static_cast<std::int64_t>(p.ranks));
      j.set("bytes", p.bytes);
      j.set("fit", p.fit);
      j.set("measured_us", p.time_us);
      j.set("predicted_us", pred);
      rows.push(j);
    }
    r.summary.push_back("Held out, >= 1 MB: " + held_big.text() + "; below 1 MB: " + held_small.text());
    if (!o->no_fit)
      r.summary.push_back("Fit points, >= 1 MB: " + fit_big.text() + "; below 1 MB: " + fit_small.text());
    r.sections.push_back({"Points", "", t});
    if (!gpu_points.empty()) {
      // The GPU curve against the CUDA-graph times (no host in the loop).
      reports::Table g({{"collective"},
                        {"ranks", reports::Align::right},
                        {"bytes", reports::Align::right},
                        {"set"},
                        {"measured", reports::Align::right},
                        {"predicted", reports::Align::right},
                        {"error", reports::Align::right}});
      Stats g_held_big, g_held_small, g_fit;
      for (const auto& p : gpu_points) {
        const double pred = calib::predict_point_gpu(fit.system, p);
        const double err = pred / p.time_us - 1;
        (p.fit ? g_fit : (p.bytes >= 1 << 20 ? g_held_big : g_held_small)).add(err);
        g.add_row({p.collective, std::to_string(p.ranks), reports::bytes(p.bytes), p.fit ? "fit" : "held out",
                   reports::duration(p.time_us), reports::duration(pred), reports::fixed(err * 100, 1) + "%"});
      }
      r.summary.push_back("CUDA-graph (GPU) times, held out, >= 1 MB: " + g_held_big.text() +
                          "; below 1 MB: " + g_held_small.text() + "; fit points: " + g_fit.text());
      r.sections.push_back({"CUDA-graph (GPU) times", "", g});
    }
    if (!o->no_fit) {
      reports::Table v({{"key"}, {"value", reports::Align::right}});
      for (const auto& [k, val] : fit.values) v.add_row({k, reports::sig3(val)});
      r.sections.push_back({"Fitted values", "", v});
    }
    r.csv = csv;
    reports::Json j = reports::Json::object();
    j.set("system", base.id);
    j.set("points", rows);
    r.json = j;
    if (!o->profile.empty() && !o->no_fit) {
      const std::string source = o->results.empty() ? o->published + " column " + o->column
                                 : o->gpu_times.empty()
                                     ? o->results
                                     : o->gpu_times + " (CUDA-graph times: gpu_latency_us, bus_efficiency, ramp_bytes "
                                                      "per collective) and " + o->results + " (base_latency_us)";
      std::vector<std::string> extra;
      if (o->gpus > 0) {
        extra.push_back("gpus_per_node = " + std::to_string(o->gpus));
        extra.push_back("fabric.domain_gpus = " + std::to_string(o->gpus));
      }
      if (!base.fabric.nvls) extra.push_back("fabric.nvls = 0");
      const std::string provenance =
          "fit by gpucast fabric-fit to " + source + " (" + (o->per_op ? "per-op medians" : "batched nccl-tests-style times") +
          "), even size indices fitted, odd held out" +
          (o->ramp_exponent > 0 ? "; ramp exponent fixed at " + reports::sig3(o->ramp_exponent) + " (assumption)" : "") +
          (base.fabric.nvls ? std::string("") : std::string("; NVLink multicast off (NCCL_NVLS_ENABLE=0)"));
      emit(*ctx.outputs, calib::profile_toml(fit, o->profile_name.empty() ? base.name + " (fitted)" : o->profile_name,
                               o->system,
                               extra, provenance),
           o->profile);
    }
    write_report(ctx, r, o->out);
  });
}

}  // namespace gpucast::cli
