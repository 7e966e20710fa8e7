// `gpucast validate`: predicted against measured kernels, per op family.
#include <memory>

#include "calibration/validation_output.h"
#include "cli/commands.h"

namespace gpucast::cli {
namespace {
struct ValidateOptions {
  std::string gpu;
  std::vector<std::string> sets;
  std::string offline;
  std::string split;
  std::string format = "table";
  std::string output;
  int worst = 10;
  bool all_cases = false;
};
}  // namespace

void add_validate_command(CLI::App& app, AppContext& ctx) {
  auto opts = std::make_shared<ValidateOptions>();
  auto* cmd = app.add_subcommand("validate", "Compare predictions with kernels measured on a real GPU");
  cmd->add_option("--gpu", opts->gpu, "hardware description to predict with (catalog id or .toml)")->required();
  cmd->add_option("--set", opts->sets, "override a hardware key: key.path=value (repeatable)");
  cmd->add_option("--offline", opts->offline, "re-predict a stored measurement file instead of measuring");
  cmd->add_option("--split", opts->split, "only the dev or the test half of the cases")
      ->check(CLI::IsMember({"dev", "test"}));
  cmd->add_option("--format", opts->format, "table | json | csv | markdown")->check(CLI::IsMember(format_choices()));
  cmd->add_option("--worst", opts->worst, "how many of the worst cases to list (table output)");
  cmd->add_flag("--cases", opts->all_cases, "list every case (table, csv and markdown output)");
  cmd->add_option("-o,--output", opts->output, "write to this file instead of stdout");
  cmd->callback([opts, &ctx] {
    if (opts->offline.empty())
      throw UsageError("live validation needs a GPU machine: run calibration/run_on_device.sh there, or give --offline FILE");
    const auto gpu = ctx.catalog.load(opts->gpu, hw::parse_overrides(opts->sets));
    const auto report = calib::validate_offline(opts->offline, gpu, opts->split);
    std::string text;
    if (opts->format == "json") {
      text = calib::validation_json(report).dump(2) + "\n";
    } else {
      std::vector<const calib::ValidationCase*> all;
      for (const auto& c : report.cases) all.push_back(&c);
      const auto families = calib::family_table(report);
      const auto cases = calib::cases_table(opts->all_cases ? all : report.worst(opts->worst));
      if (opts->format == "csv") {
        text = calib::cases_table(all).to_csv();
      } else if (opts->format == "markdown") {
        text = "## Error per op family\n\n" + families.to_markdown() + "\n## " +
               (opts->all_cases ? std::string("Cases") : "Worst cases") + "\n\n" + cases.to_markdown();
      } else {
        text = "Measured: " + report.gpu_measured + " (" + report.measured_on + ")\nPredicted with: " +
               report.gpu_predicted + "\n\n" + families.to_text() + "\n" +
               (opts->all_cases ? "Cases:\n" : "Worst cases:\n") + cases.to_text();
        if (!report.skipped.empty()) text += "\n" + std::to_string(report.skipped.size()) + " cases skipped\n";
      }
    }
    emit(text, opts->output);
  });
}

}  // namespace gpucast::cli
