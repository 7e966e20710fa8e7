// `gpucast validate`: predicted against measured kernels, per op family.
#include <memory>

#include <ctime>

#include "calibration/measured_input.h"
#include "calibration/validation_output.h"
#include "cli/commands.h"
#include "cli/output.h"
#include "cli/subprocess.h"
#include "workloads/workload_file.h"

namespace gpucast::cli {
namespace {
struct ValidateOptions {
  std::string gpu;
  std::vector<std::string> sets;
  std::string offline;
  std::string measured;
  std::string workload;
  std::string save;
  std::string families;
  bool quick = false;
  std::string split;
  OutputOptions out;
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
  auto* measured = cmd->add_option("--measured", opts->measured,
                                   "your measurements: gpucast CSV/JSON (op, parameters, measured time per kernel) or an "
                                   "Nsight Compute `ncu --csv --page details` export (docs/report-formats.md)");
  cmd->add_option("--workload", opts->workload,
                  "with an Nsight Compute export: the workload file whose kernels were profiled, in order");
  measured->excludes(cmd->get_option("--offline"));
  cmd->add_option("--save", opts->save, "where to store the measurements (default validation/<gpu>/kernels-<date>.json)");
  cmd->add_option("--families", opts->families, "measure only these op families (comma separated)");
  cmd->add_flag("--quick", opts->quick, "shorter timing windows when measuring");
  cmd->add_option("--split", opts->split, "only the calibration, dev or test share of the cases")
      ->check(CLI::IsMember({"calibration", "dev", "test"}));
  cmd->add_option("--worst", opts->worst, "how many of the worst cases to list (table output)")
      ->check(CLI::Range(0, 100000));
  cmd->add_flag("--cases", opts->all_cases, "list every case (table, csv and markdown output)");
  add_output_options(cmd, opts->out);
  cmd->callback([opts, &ctx] {
    const auto gpu = ctx.catalog.load(opts->gpu, hw::parse_overrides(opts->sets));
    if (!opts->workload.empty() && opts->measured.empty())
      throw UsageError("--workload goes with --measured (an Nsight Compute export)");
    if (!opts->measured.empty()) {
      const auto file = calib::read_measured(opts->measured);
      std::optional<wl::Workload> workload;
      if (!opts->workload.empty()) workload = wl::read_workload_file(opts->workload);
      const auto report = calib::validate_measured(file, opts->measured, gpu, workload ? &*workload : nullptr);
      write_report(ctx, calib::validation_document(report, true, report.cases.size()), opts->out);
      return;
    }
    std::string measurements = opts->offline;
    if (measurements.empty()) {
      // Measure here: the suite times real PyTorch kernels on this machine's GPU.
      const std::time_t now = std::time(nullptr);
      char date[16];
      std::strftime(date, sizeof date, "%Y%m%d", std::gmtime(&now));
      const auto dir = ctx.data_dir / "validation" / std::filesystem::path(gpu.id).filename();
      measurements = opts->save.empty() ? (dir / ("kernels-" + std::string(date) + ".json")).string() : opts->save;
      std::filesystem::create_directories(std::filesystem::path(measurements).parent_path());
      const auto suite = ctx.data_dir / "calibration" / "validation" / "suite.py";
      std::string command = "PYTHONUNBUFFERED=1 python3 " + shell_quote(suite.string()) + " --out " + shell_quote(measurements);
      if (!opts->families.empty()) command += " --families " + shell_quote(opts->families);
      if (opts->quick) command += " --quick";
      Progress progress("Timing validation kernels on this GPU (PyTorch, do_bench semantics) -> " + measurements);
      const int rc = run_streaming(command, [&](const std::string& l) { progress.line(l); });
      progress.finish();
      if (rc != 0)
        throw Error("the validation suite failed (exit " + std::to_string(rc) + "); it needs a CUDA GPU with PyTorch and "
                    "Triton. Its output:\n" + progress.tail());
    }
    const auto report = calib::validate_offline(measurements, gpu, opts->split);
    write_report(ctx, calib::validation_document(report, opts->all_cases, size_t(std::max(0, opts->worst))), opts->out);
  });
}

}  // namespace gpucast::cli
