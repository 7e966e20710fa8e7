// `gpucast predict`: a workload on one or more GPUs.
#include <memory>

#include "cli/commands.h"
#include "cli/output.h"
#include "cli/workload_source.h"
#include "reports/prediction_report.h"

namespace gpucast::cli {
namespace {
struct PredictOptions {
  std::vector<std::string> gpus;
  std::vector<std::string> sets;
  WorkloadSourceOptions source;
  OutputOptions out;
};

}  // namespace

void add_predict_command(CLI::App& app, AppContext& ctx) {
  auto opts = std::make_shared<PredictOptions>();
  auto* cmd = app.add_subcommand("predict", "Predict how long a workload takes on a GPU");
  cmd->add_option("--gpu", opts->gpus, "catalog id or .toml file; several: --gpu a,b")->required();
  add_workload_source_options(cmd, opts->source, true);
  cmd->add_option("--set", opts->sets, "override a hardware key: key.path=value (repeatable)");
  add_output_options(cmd, opts->out);
  cmd->callback([opts, &ctx] {
    const auto source = resolve_workload(opts->source, *ctx.outputs);
    const auto overrides = hw::parse_overrides(opts->sets);
    std::vector<reports::Report> reports;
    // Predictions point into their simulator's cache: keep every simulator until the reports exist.
    for (const auto& id : split_commas(opts->gpus)) {
      const auto gpu = ctx.catalog.load(id, overrides);
      sim::Simulator simulator(gpu);
      const auto p = simulator.predict(source.workload);
      std::optional<reports::ModelRun> run;
      if (source.model) run = model_run(source, gpu);
      reports.push_back(reports::prediction_report(gpu, p, run ? &*run : nullptr));
    }
    write_reports(ctx, reports, opts->out);
  });
}

}  // namespace gpucast::cli
