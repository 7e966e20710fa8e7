// `gpucast explain`: every way the model considered running one op, with the time terms of each
// kernel, so that a user can see why a kernel is predicted slow.
#include <algorithm>
#include <memory>
#include <sstream>

#include "cli/commands.h"
#include "cli/output.h"
#include "models/op_model.h"
#include "reports/table.h"
#include "reports/units.h"
#include "reports/vega.h"
#include "sim/op_predictor.h"
#include "workloads/op_params.h"
#include "workloads/workload_file.h"

namespace gpucast::cli {
namespace {
struct ExplainOptions {
  std::string gpu;
  std::vector<std::string> sets;
  std::vector<std::string> op;
  int top = 8;
  OutputOptions out;
};

// "gemm m=1 n=4096 k=4096 dtype=bf16" -> a one-kernel workload file, parsed by the real reader so
// that errors and defaults are exactly those of workload files.
wl::Op parse_op(const std::vector<std::string>& words) {
  if (words.empty()) throw UsageError("give an op and its parameters, e.g. gemm m=1 n=4096 k=4096 dtype=bf16");
  std::ostringstream toml;
  toml << "[[kernel]]\nop = \"" << words[0] << "\"\n";
  for (size_t i = 1; i < words.size(); ++i) {
    const auto eq = words[i].find('=');
    if (eq == std::string::npos) throw UsageError("expected key=value, got '" + words[i] + "'");
    const std::string key = words[i].substr(0, eq);
    const std::string value = words[i].substr(eq + 1);
    const bool bare = !value.empty() && (std::isdigit(static_cast<unsigned char>(value[0])) || value == "true" ||
                                         value == "false" || value[0] == '-' || value[0] == '.');
    toml << key << " = " << (bare ? value : "\"" + value + "\"") << "\n";
  }
  const auto w = wl::read_workload_text(toml.str(), "command line");
  return w.kernels().front().op;
}
}  // namespace

void add_explain_command(CLI::App& app, AppContext& ctx) {
  auto opts = std::make_shared<ExplainOptions>();
  auto* cmd = app.add_subcommand("explain", "Show how one op is predicted: every option considered, term by term");
  cmd->add_option("--gpu", opts->gpu, "catalog id or .toml file")->required();
  cmd->add_option("--set", opts->sets, "override a hardware key: key.path=value (repeatable)");
  cmd->add_option("--top", opts->top, "how many of the fastest options to show")->check(CLI::Range(1, 1000));
  cmd->add_option("op", opts->op, "op and parameters, e.g.: gemm m=1 n=4096 k=4096 dtype=bf16")->required();
  add_output_options(cmd, opts->out);
  cmd->callback([opts, &ctx] {
    using reports::Json;
    using reports::vega::obj;
    const auto gpu = ctx.catalog.load(opts->gpu, hw::parse_overrides(opts->sets));
    const wl::Op op = parse_op(opts->op);
    // The predictor's own ranking: the first option is the prediction (sim/op_predictor.h).
    const sim::OpPredictor predictor(gpu);
    const std::vector<sim::OpTiming> rows = predictor.rank_options(op);
    const auto& best = rows.front();

    reports::Report r;
    r.title = wl::op_name(op) + " " + wl::op_shape(op) + " on " + gpu.id;
    r.summary.push_back("predicted " + reports::duration(best.duration_us) + " = overhead " +
                        reports::duration(best.overhead_us) + " (launch, queued kernels, first touch) + kernels " +
                        reports::duration(best.exec_us) + "; bound: " + std::string(sim::bound_name(best.bound)) + "; " +
                        reports::tflops(best.flops / best.duration_us * 1e-6) + ", " +
                        reports::bandwidth(best.dram_bytes / best.duration_us * 1e-3));
    reports::Table table({{"#", reports::Align::right}, {"option"}, {"kernel time", reports::Align::right},
                          {"total", reports::Align::right}, {"kernel"}, {"blocks", reports::Align::right}, {"per SM", reports::Align::right},
                          {"waves", reports::Align::right}, {"compute-bound", reports::Align::right},
                          {"memory-bound", reports::Align::right}, {"latency-bound", reports::Align::right},
                          {"DRAM", reports::Align::right}});
    reports::Table csv({{"rank"}, {"option"}, {"chosen"}, {"option_duration_us"}, {"option_exec_us"}, {"kernel"}, {"blocks"}, {"blocks_per_sm"}, {"waves"},
                        {"exec_us"}, {"compute_us"}, {"memory_us"}, {"latency_us"}, {"dram_bytes"}});
    Json options = Json::array();
    Json bars = Json::array();
    const size_t shown = std::min(rows.size(), size_t(std::max(1, opts->top)));
    for (size_t i = 0; i < rows.size(); ++i) {
      const auto& row = rows[i];
      Json kernels = Json::array();
      const std::string label = i == 0 ? row.option + " (chosen)" : row.option;
      for (size_t k = 0; k < row.kernels.size(); ++k) {
        const auto& t = row.kernels[k];
        if (i < shown)
          table.add_row({k == 0 ? std::to_string(i + 1) : "", k == 0 ? label : "",
                         k == 0 ? reports::duration(row.exec_us) : "", k == 0 ? reports::duration(row.duration_us) : "",
                         t.name, reports::count(t.blocks),
                         std::to_string(t.blocks_per_sm), reports::sig3(t.waves), reports::duration(t.compute_us),
                         reports::duration(t.memory_us), reports::duration(t.latency_us), reports::bytes(t.dram_bytes)});
        auto num = [](double v) { return reports::format_number(v); };
        csv.add_row({std::to_string(i + 1), row.option, i == 0 ? "true" : "false", num(row.duration_us),
                      num(row.exec_us), t.name, num(t.blocks),
                      std::to_string(t.blocks_per_sm), num(t.waves), num(t.exec_us), num(t.compute_us),
                      num(t.memory_us), num(t.latency_us), num(t.dram_bytes)});
        kernels.push(obj({{"name", t.name}, {"blocks", t.blocks}, {"blocks_per_sm", t.blocks_per_sm},
                          {"waves", t.waves}, {"exec_us", t.exec_us}, {"compute_us", t.compute_us},
                          {"memory_us", t.memory_us}, {"latency_us", t.latency_us}, {"dram_bytes", t.dram_bytes}}));
        if (i < shown)
          for (const auto& [term, us] : std::vector<std::pair<std::string, double>>{
                   {"compute", t.compute_us}, {"memory", t.memory_us}, {"latency", t.latency_us}})
            bars.push(obj({{"option", std::to_string(i + 1) + ". " + row.option}, {"rank", int(i)},
                           {"kernel", t.name}, {"term", term}, {"us", us}}));
      }
      options.push(obj({{"option", row.option}, {"chosen", i == 0}, {"duration_us", row.duration_us},
                        {"overhead_us", row.overhead_us}, {"exec_us", row.exec_us}, {"kernels", kernels}}));
    }
    r.sections.push_back({"Options in the predictor's order, fastest total first (" + std::to_string(rows.size()) + " considered, " +
                              std::to_string(shown) + " shown)",
                          "", table});
    r.csv = csv;
    Json j = obj({{"gpu", gpu.id}, {"op", wl::op_name(op)}, {"shape", wl::op_shape(op)},
                  {"duration_us", best.duration_us}, {"overhead_us", best.overhead_us}, {"exec_us", best.exec_us},
                  {"bound", std::string(sim::bound_name(best.bound))}, {"option", best.option},
                  {"flops", best.flops}, {"dram_bytes", best.dram_bytes}});
    j.set("options", options);
    r.json = j;
    Json spec = reports::vega::spec("options", bars, 600, std::max<int>(120, 70 * int(shown)));
    spec.set("mark", "bar");
    spec.set("encoding", obj({{"y", obj({{"field", "option"}, {"type", "nominal"}, {"title", nullptr},
                                         {"sort", obj({{"field", "rank"}})}})},
                              {"yOffset", obj({{"field", "term"}, {"type", "nominal"}})},
                              {"x", obj({{"field", "us"}, {"type", "quantitative"}, {"aggregate", "sum"},
                                         {"title", "kernel time by what limits it, summed over the option's kernels (us)"}})},
                              {"color", reports::vega::bound_color("term")},
                              {"tooltip", Json(Json::Array{obj({{"field", "option"}}), obj({{"field", "term"}}),
                                                           obj({{"field", "us"}, {"aggregate", "sum"}, {"format", ".2f"}})})}}));
    r.charts.push_back({"options", "Why this option: what limits the fastest options",
                        "For each option (fastest first), its kernel time split by what limits each wave of thread "
                        "blocks: arithmetic (compute), DRAM or L2 traffic (memory), or dependent latency, pipeline "
                        "fill and block dispatch (latency).",
                        spec});
    r.inputs = {{"GPU", gpu.name + " (" + gpu.id + ")"}, {"op", wl::op_name(op) + " " + wl::op_shape(op)}};
    write_report(ctx, r, opts->out);
  });
}

}  // namespace gpucast::cli
