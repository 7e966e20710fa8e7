// `gpucast explain`: every way the model considered running one op, with the time terms of each
// kernel, so that a user can see why a kernel is predicted slow.
#include <algorithm>
#include <memory>
#include <sstream>

#include "cli/commands.h"
#include "models/op_model.h"
#include "reports/table.h"
#include "reports/units.h"
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
  cmd->add_option("--top", opts->top, "how many of the fastest options to show");
  cmd->add_option("op", opts->op, "op and parameters, e.g.: gemm m=1 n=4096 k=4096 dtype=bf16")->required();
  cmd->callback([opts, &ctx] {
    const auto gpu = ctx.catalog.load(opts->gpu, hw::parse_overrides(opts->sets));
    const wl::Op op = parse_op(opts->op);
    sim::OpPredictor predictor(gpu);
    const auto rates = predictor.rates();
    auto options = models::plan_op(op, gpu);
    struct Row {
      double total;
      std::string text;
    };
    std::vector<Row> rows;
    for (const auto& option : options) {
      double exec = 0;
      std::string detail;
      for (const auto& k : option.kernels) {
        const auto t = sim::time_kernel(k, rates, gpu);
        exec += t.exec_us;
        detail += "    " + k.name + ": " + reports::count(k.blocks) + " blocks, " + std::to_string(t.blocks_per_sm) +
                  "/SM, " + reports::sig3(t.waves) + " waves; exec " + reports::duration(t.exec_us) + " (compute " +
                  reports::duration(t.compute_us) + ", memory " + reports::duration(t.memory_us) + ", latency " +
                  reports::duration(t.latency_us) + "); DRAM " + reports::bytes(t.dram_bytes) + "\n";
      }
      rows.push_back({exec, option.name + "\n" + detail});
    }
    std::sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) { return a.total < b.total; });
    const auto& best = predictor.predict(op);
    std::string text = wl::op_name(op) + " " + wl::op_shape(op) + " on " + gpu.id + "\n";
    text += "predicted " + reports::duration(best.duration_us) + " = overhead " + reports::duration(best.overhead_us) +
            " (launch, queued kernels, first touch) + kernels " + reports::duration(best.exec_us) + "; bound: " +
            std::string(sim::bound_name(best.bound)) + "; " + reports::tflops(best.flops / best.duration_us * 1e-6) +
            ", " + reports::bandwidth(best.dram_bytes / best.duration_us * 1e-3) + "\n\n";
    text += "options by kernel time (" + std::to_string(rows.size()) + " considered):\n";
    for (size_t i = 0; i < rows.size() && static_cast<int>(i) < opts->top; ++i)
      text += "  " + reports::duration(rows[i].total) + "  " + rows[i].text;
    emit(text);
  });
}

}  // namespace gpucast::cli
