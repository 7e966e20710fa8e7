// `gpucast calibrate`: measure a GPU with the CUDA microbenchmarks (or refit stored measurements)
// and write a calibrated hardware description that extends the catalog entry.
#include <ctime>
#include <fstream>
#include <memory>
#include <sstream>

#include "calibration/adjustments.h"
#include "calibration/fit.h"
#include "cli/commands.h"
#include "cli/output.h"
#include "cli/subprocess.h"
#include "reports/table.h"
#include "reports/units.h"
#include "reports/vega.h"

namespace gpucast::cli {
namespace fs = std::filesystem;
namespace {

struct CalibrateOptions {
  std::string gpu;
  std::vector<std::string> from;
  std::vector<std::string> framework;
  std::string bench;
  std::string out;
  std::string adjust;
  bool quick = false;
  bool no_framework = false;
  OutputOptions report;
};

fs::path find_microbench(const AppContext& ctx, const std::string& explicit_path) {
  if (!explicit_path.empty()) {
    if (!fs::is_regular_file(explicit_path)) throw UsageError("no microbenchmark binary at '" + explicit_path + "'");
    return explicit_path;
  }
  for (const fs::path& p : {executable_dir() / ".." / "calibration" / "gpucast-microbench",
                            ctx.data_dir / "build" / "calibration" / "gpucast-microbench",
                            ctx.data_dir / "build-cuda" / "gpucast-microbench"})
    if (fs::is_regular_file(p)) return p;
  throw UsageError(
      "the CUDA microbenchmarks are not built (nvcc was not found when gpucast was configured). On a GPU machine run "
      "calibration/build_microbench.sh, or pass --bench PATH, or refit stored measurements with --from FILE");
}

std::string today() {
  const std::time_t now = std::time(nullptr);
  char buf[16];
  std::strftime(buf, sizeof buf, "%Y-%m-%d", std::gmtime(&now));
  return buf;
}

}  // namespace

void add_calibrate_command(CLI::App& app, AppContext& ctx) {
  auto opts = std::make_shared<CalibrateOptions>();
  auto* cmd = app.add_subcommand("calibrate", "Measure a GPU with microbenchmarks and write a calibrated description");
  cmd->add_option("--gpu", opts->gpu, "catalog entry the GPU is (the profile extends it)")->required();
  cmd->add_option("--from", opts->from, "refit stored microbenchmark results instead of measuring (repeatable)");
  cmd->add_option("--framework", opts->framework, "stored framework-probe results to use with --from (repeatable)");
  cmd->add_option("--bench", opts->bench, "path to gpucast-microbench");
  cmd->add_option("-o,--out", opts->out, "profile to write (default hardware/calibrated/<gpu>.toml)");
  cmd->add_option("--adjust", opts->adjust,
                  "hand-set values that replace fitted ones, each with its evidence (TOML; "
                  "docs/hardware-format.md, [calibration])");
  cmd->add_flag("--quick", opts->quick, "fewer repetitions (a rough profile in about a minute)");
  cmd->add_flag("--no-framework", opts->no_framework, "skip the PyTorch launch-cost probe");
  add_output_options(cmd, opts->report, false);
  cmd->callback([opts, &ctx] {
    const auto catalog_gpu = ctx.catalog.load(opts->gpu);
    const fs::path out = opts->out.empty() ? ctx.catalog.hardware_dir() / "calibrated" / (opts->gpu + ".toml")
                                           : fs::path(opts->out);
    const fs::path stem = out.parent_path() / out.stem();
    std::vector<std::string> microbench_files = opts->from;
    std::vector<std::string> framework_files = opts->framework;
    fs::create_directories(out.parent_path().empty() ? fs::path(".") : out.parent_path());
    if (opts->from.empty()) {
      fs::path microbench_file;
      fs::path framework_file;
      fs::create_directories(out.parent_path().empty() ? fs::path(".") : out.parent_path());
      microbench_file = stem.string() + ".microbench.json";
      const fs::path bin = find_microbench(ctx, opts->bench);
      Progress progress("Running CUDA microbenchmarks on this GPU (" + bin.string() + ")");
      const int rc = run_streaming(shell_quote(bin.string()) + (opts->quick ? " --quick" : "") + " --out " +
                                       shell_quote(microbench_file.string()),
                                   [&](const std::string& l) { progress.line(l); });
      progress.finish();
      if (rc != 0) throw Error("the microbenchmarks failed (exit " + std::to_string(rc) + "):\n" + progress.tail());
      if (!opts->no_framework) {
        framework_file = stem.string() + ".framework.json";
        const fs::path probe = ctx.data_dir / "calibration" / "microbench" / "framework_overhead.py";
        Progress fw("Measuring framework launch costs (PyTorch)");
        std::string output;
        const int frc = run_streaming("python3 " + shell_quote(probe.string()), [&](const std::string& l) { output += l + "\n"; });
        fw.finish();
        if (frc == 0 && output.find('{') != std::string::npos) {
          // Raw measurements are kept even when a later step fails: written whole, at once.
          write_file_atomically(framework_file, output.substr(output.find('{')));
        } else {
          std::cerr << "  (no PyTorch here: framework launch costs stay at their defaults)\n";
          framework_file.clear();
        }
      }
      microbench_files.push_back(microbench_file.string());
      if (!framework_file.empty()) framework_files.push_back(framework_file.string());
    }
    std::vector<reports::Json> docs, fw_docs;
    for (const auto& f : microbench_files) docs.push_back(reports::Json::parse_file(f));
    for (const auto& f : framework_files) fw_docs.push_back(reports::Json::parse_file(f));
    const auto microbench = calib::merge_measurements(docs);
    std::optional<reports::Json> framework;
    if (!fw_docs.empty()) framework = calib::merge_measurements(fw_docs);
    auto result = calib::fit_calibration(microbench, framework ? &*framework : nullptr, ctx.catalog, opts->gpu);
    if (result.date.empty()) result.date = today();
    if (!opts->adjust.empty()) calib::apply_adjustments(result, calib::read_adjustments(opts->adjust));
    std::string names;
    for (const auto& f : microbench_files) names += (names.empty() ? "" : ", ") + fs::path(f).filename().string();
    for (const auto& f : framework_files) names += ", " + fs::path(f).filename().string();
    std::string text = calib::calibrated_toml(result, opts->gpu, names);
    // The profile must load like any other description: its temporary (same folder, so relative
    // `extends` resolve alike) is loaded before the command commits it.
    const fs::path staged = ctx.outputs->write(out, text);
    auto calibrated = ctx.catalog.load(staged.string());
    calibrated.id = out.stem().string();

    using reports::Json;
    using reports::vega::obj;
    reports::Report r;
    r.title = "Calibrated " + calibrated.id + " from " + result.gpu_name + " -> " + out.string();
    reports::Table table({{"key"}, {"catalog", reports::Align::right}, {"calibrated", reports::Align::right}, {"from"}});
    reports::Table csv({{"key"}, {"catalog"}, {"calibrated"}, {"ratio"}, {"how"}});
    Json values = Json::array();
    Json ratios = Json::array();
    for (const auto& v : result.values) {
      const auto it = catalog_gpu.values.find(v.key);
      const std::string before = it == catalog_gpu.values.end() ? "-" : scalar_to_string(it->second.value);
      const double* before_num = it == catalog_gpu.values.end() ? nullptr : std::get_if<double>(&it->second.value);
      table.add_row({v.key, before, reports::sig3(v.value), v.how.substr(0, 70)});
      const std::string ratio = before_num && *before_num != 0 ? reports::format_number(v.value / *before_num) : "";
      csv.add_row({v.key, before == "-" ? "" : before, reports::format_number(v.value), ratio, v.how});
      values.push(obj({{"key", v.key}, {"catalog", before_num ? Json(*before_num) : Json()}, {"calibrated", v.value},
                       {"how", v.how}}));
      if (!ratio.empty()) ratios.push(obj({{"key", v.key}, {"ratio", v.value / *before_num}}));
    }
    r.sections.push_back({"Values", "", table});
    std::string fit_text;
    Json fits = Json::array();
    for (const auto& f : result.fits) {
      fit_text += f.name + ": " + std::to_string(f.points) + " points, rms residual " +
                  reports::percent(f.rms_relative_residual) + "\n";
      fits.push(obj({{"name", f.name}, {"points", f.points}, {"rms_relative_residual", f.rms_relative_residual}}));
    }
    for (const auto& n : result.notes) fit_text += "note: " + n + "\n";
    r.sections.push_back({"Fit quality", fit_text, std::nullopt});
    r.csv = csv;
    Json j = obj({{"gpu", calibrated.id}, {"measured", result.gpu_name}, {"profile", out.string()}});
    j.set("values", values);
    j.set("fits", fits);
    Json notes = Json::array();
    for (const auto& n : result.notes) notes.push(n);
    j.set("notes", notes);
    r.json = j;
    Json spec = reports::vega::spec("calibrated over catalog", ratios, 560, std::max<int>(150, 18 * int(ratios.size())));
    spec.set("layer", Json(Json::Array{
        obj({{"mark", "bar"},
             {"encoding", obj({{"y", obj({{"field", "key"}, {"type", "nominal"}, {"title", nullptr}, {"sort", nullptr}})},
                               // Bars grow from 1x: a log scale has no zero for a bar to start at.
                               {"x", obj({{"field", "ratio"}, {"type", "quantitative"}, {"title", "calibrated / catalog"},
                                          {"scale", obj({{"type", "log"}})}})},
                               {"x2", obj({{"datum", 1}})},
                               {"tooltip", Json(Json::Array{obj({{"field", "key"}}),
                                                            obj({{"field", "ratio"}, {"format", ".3f"}})})}})}}),
        obj({{"data", obj({{"values", Json(Json::Array{obj({{"x", 1}})})}})},
             {"mark", obj({{"type", "rule"}, {"color", "#333"}})},
             {"encoding", obj({{"x", obj({{"field", "x"}, {"type", "quantitative"}})}})}})}));
    r.charts.push_back({"ratios", "Calibrated against catalog values",
                        "Each measured key as a multiple of the catalog's value (log scale; the line is 1x): "
                        "where the datasheet and assumptions were optimistic or pessimistic for this GPU.",
                        spec});
    r.inputs = {{"measurements", names}, {"catalog entry", opts->gpu}};
    write_report(ctx, r, opts->report);
  });
}

}  // namespace gpucast::cli
