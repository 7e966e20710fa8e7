// `gpucast predict`: a workload on one or more GPUs.
#include <memory>
#include <sstream>

#include "cli/commands.h"
#include "cli/workload_source.h"
#include "reports/prediction_report.h"

namespace gpucast::cli {
namespace {
struct PredictOptions {
  std::vector<std::string> gpus;
  std::vector<std::string> sets;
  WorkloadSourceOptions source;
  std::string format = "table";
  std::string output;
};

std::vector<std::string> split_list(const std::vector<std::string>& items) {
  std::vector<std::string> out;
  for (const auto& item : items) {
    std::stringstream ss(item);
    for (std::string part; std::getline(ss, part, ',');)
      if (!part.empty()) out.push_back(part);
  }
  return out;
}
}  // namespace

void add_predict_command(CLI::App& app, AppContext& ctx) {
  auto opts = std::make_shared<PredictOptions>();
  auto* cmd = app.add_subcommand("predict", "Predict how long a workload takes on a GPU");
  cmd->add_option("--gpu", opts->gpus, "catalog id or .toml file; several: --gpu a,b")->required();
  add_workload_source_options(cmd, opts->source, true);
  cmd->add_option("--set", opts->sets, "override a hardware key: key.path=value (repeatable)");
  cmd->add_option("--format", opts->format, "table | json | csv | markdown")->check(CLI::IsMember(format_choices()));
  cmd->add_option("-o,--output", opts->output, "write to this file instead of stdout");
  cmd->callback([opts, &ctx] {
    const auto source = resolve_workload(opts->source);
    const auto& workload = source.workload;
    const auto overrides = hw::parse_overrides(opts->sets);
    std::string text;
    reports::Json all = reports::Json::array();
    std::string csv;
    for (const auto& id : split_list(opts->gpus)) {
      const auto gpu = ctx.catalog.load(id, overrides);
      sim::Simulator simulator(gpu);
      const auto p = simulator.predict(workload);
      std::optional<reports::ModelRun> run;
      if (source.model) run = model_run(source, gpu);
      if (opts->format == "json") {
        auto j = reports::prediction_json(p);
        if (run) {
          j.set("model", source.model->workload.name());
          j.set("memory", reports::memory_json(*run));
          j.set("throughput", reports::throughput_json(*run, p));
        }
        all.push(std::move(j));
      } else if (opts->format == "csv") {
        const auto table = reports::kernel_csv_table(p).to_csv();
        csv += csv.empty() ? table : table.substr(table.find('\n') + 1);
      } else if (opts->format == "markdown") {
        text += "## " + p.workload + " on " + p.gpu + "\n\n" + reports::prediction_summary(p) + "\n" +
                (run ? reports::model_summary(*run, p) + "\n" + reports::memory_table(*run).to_markdown() + "\n" : "") +
                reports::kernel_table(p).to_markdown() + "\n" + reports::op_summary_table(p).to_markdown() + "\n";
      } else {
        const bool long_listing = workload.size() > 60;
        text += reports::prediction_summary(p);
        if (run) text += reports::model_summary(*run, p) + "\n" + reports::memory_table(*run).to_text();
        text += "\n" + (long_listing ? std::string() : reports::kernel_table(p).to_text() + "\n") + "Time by op:\n" +
                reports::op_summary_table(p).to_text() +
                (long_listing ? "(" + std::to_string(workload.size()) + " kernels; --format csv or json lists them)\n" : "") +
                "\n";
      }
    }
    if (opts->format == "json") text = (all.size() == 1 ? all.as_array().front() : all).dump(2) + "\n";
    if (opts->format == "csv") text = csv;
    emit(text, opts->output);
  });
}

}  // namespace gpucast::cli
