// `gpucast predict`: a workload on one or more GPUs, or one rank of a multi-GPU system.
#include <memory>

#include "cli/commands.h"
#include "cli/host_alternatives.h"
#include "cli/output.h"
#include "cli/system_source.h"
#include "cli/workload_source.h"
#include "reports/parallel_report.h"
#include "calibration/trace_replay.h"
#include "reports/prediction_report.h"

namespace gpucast::cli {
namespace {
struct PredictOptions {
  std::vector<std::string> gpus;
  std::string system;
  std::vector<std::string> sets;
  WorkloadSourceOptions source;
  OutputOptions out;
};

reports::Report predict_on_system(const AppContext& ctx, const PredictOptions& o, const ResolvedWorkload& source,
                                  const std::string& system_id, const hw::HostSpec& host) {
  const auto system = load_system(ctx, system_id, o.sets);
  const wl::Parallelism layout = source.model ? source.options.parallel : wl::Parallelism{};
  check_layout_fits(system, layout);
  sim::Simulator simulator(system, host);
  const auto p = simulator.predict(source.workload);
  std::optional<reports::ModelRun> run;
  if (source.model) run = model_run(source, system.gpu);
  // Under pipeline parallelism the simulated workload is one microbatch of one stage: the model's
  // step figures come from the pipeline schedule, not from the prediction's total.
  const bool pipelined = layout.pp > 1;
  // What would change a host-bound rank (pipeline stages are scheduled apart from the timeline).
  const auto alternatives =
      pipelined ? std::vector<reports::HostAlternative>{} : host_alternatives(source, system, host, p);
  auto r = reports::prediction_report(system.gpu, p, run && !pipelined ? &*run : nullptr, &alternatives);
  if (run && pipelined) r.sections.insert(r.sections.begin(), reports::Section{"Memory", "", reports::memory_table(*run)});
  const auto pr = reports::analyze_parallel(system, source.workload, p, run ? &*run : nullptr, layout);
  reports::add_parallel_sections(r, pr, p);
  return r;
}

}  // namespace

void add_predict_command(CLI::App& app, AppContext& ctx) {
  auto opts = std::make_shared<PredictOptions>();
  auto* cmd = app.add_subcommand("predict", "Predict how long a workload takes on a GPU or a multi-GPU system");
  cmd->add_option("--gpu", opts->gpus, "catalog id or .toml file; several: --gpu a,b");
  cmd->add_option("--gpus", opts->gpus, "N x a catalog GPU for one node, e.g. --gpus 8xh100-sxm (or a GPU id)");
  cmd->add_option("--system", opts->system,
                  "multi-GPU system: id in hardware/catalog/systems (dgx-h100, hgx-h200, ...) or a .toml file");
  add_workload_source_options(cmd, opts->source, true);
  cmd->add_option("--set", opts->sets,
                  "override a hardware key: key.path=value (repeatable; system keys such as fabric.bandwidth_gbps "
                  "or nccl.channels go to the system; host.KEY=value for the host)");
  add_output_options(cmd, opts->out);
  cmd->callback([opts, &ctx] {
    if (opts->gpus.empty() && opts->system.empty()) throw UsageError("give --gpu ID, --gpus NxID or --system ID");
    if (!opts->gpus.empty() && !opts->system.empty()) throw UsageError("give --gpu/--gpus or --system, not both");
    const auto source = resolve_workload(opts->source, ctx.catalog, *ctx.outputs);
    const auto host = load_host(ctx, opts->source, opts->sets);
    std::vector<reports::Report> reports;
    if (!opts->system.empty()) {
      reports.push_back(predict_on_system(ctx, *opts, source, opts->system, host));
      write_reports(ctx, reports, opts->out);
      return;
    }
    // Predictions point into their simulator's cache: keep every simulator until the reports exist.
    for (const auto& id : split_commas(opts->gpus)) {
      if (is_system_shorthand(id)) {
        reports.push_back(predict_on_system(ctx, *opts, source, id, host));
        continue;
      }
      if (source.model && source.options.parallel.world() > 1)
        throw UsageError("a parallel layout (--tp/--pp/--dp) needs a system: --gpus NxGPU or --system");
      const auto gpu = ctx.catalog.load(id, gpu_overrides(opts->sets));
      sim::Simulator simulator(gpu, host);
      const auto p = simulator.predict(source.workload);
      if (source.trace) {
        reports.push_back(calib::trace_report(gpu, p, *source.trace, gpu.id == source.trace->source_gpu));
        continue;
      }
      std::optional<reports::ModelRun> run;
      if (source.model) run = model_run(source, gpu);
      const auto alternatives = host_alternatives(source, gpu, host, p);
      reports.push_back(reports::prediction_report(gpu, p, run ? &*run : nullptr, &alternatives));
    }
    write_reports(ctx, reports, opts->out);
  });
}

}  // namespace gpucast::cli
