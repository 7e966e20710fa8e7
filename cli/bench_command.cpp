// `gpucast bench`: how fast the simulator predicts large workloads. Cost should grow with the
// number of kernels (and distinct shapes), never with threads or blocks.
#include <chrono>
#include <memory>

#include "cli/commands.h"
#include "cli/output.h"
#include "reports/units.h"
#include "reports/vega.h"
#include "sim/simulator.h"

namespace gpucast::cli {
namespace {
struct BenchOptions {
  std::string gpu = "h100-sxm";
  long kernels = 100000;
  bool distinct = false;
  OutputOptions out;
};

// Transformer-block-like kernels: GEMMs, attention, norms, pointwise. With `distinct`, every
// kernel gets its own shape so that nothing is served from the prediction cache.
wl::Workload synthetic(long n, bool distinct) {
  std::vector<wl::Kernel> kernels;
  kernels.reserve(static_cast<size_t>(n));
  for (long i = 0; i < n; ++i) {
    const long layer = i / 8;
    const wl::Count tokens = distinct ? 512 + 16 * (i % 4096) : 8192;
    wl::Kernel k;
    k.name = "k" + std::to_string(i);
    switch (i % 8) {
      case 0: k.op = wl::RowOp{wl::RowOpKind::rmsnorm, tokens, 4096, DataType::bf16}; break;
      case 1: k.op = wl::GemmOp{tokens, 6144, 4096, 1, DataType::bf16, DataType::bf16}; break;
      case 2: k.op = wl::AttentionOp{4, 32, 8, tokens / 4, tokens / 4, 128, true, DataType::bf16}; break;
      case 3: k.op = wl::GemmOp{tokens, 4096, 4096, 1, DataType::bf16, DataType::bf16}; break;
      case 4: k.op = wl::ElementwiseOp{tokens * 4096, DataType::bf16, DataType::bf16, 2, 1, 1}; break;
      case 5: k.op = wl::GemmOp{tokens, 28672, 4096, 1, DataType::bf16, DataType::bf16}; break;
      case 6: k.op = wl::ElementwiseOp{tokens * 14336, DataType::bf16, DataType::bf16, 2, 1, 5}; break;
      default: k.op = wl::GemmOp{tokens, 4096, 14336, 1, DataType::bf16, DataType::bf16}; break;
    }
    (void)layer;
    kernels.push_back(std::move(k));
  }
  return wl::Workload::build(distinct ? "synthetic-distinct" : "synthetic", wl::LaunchMode::graph, std::move(kernels));
}
}  // namespace

void add_bench_command(CLI::App& app, AppContext& ctx) {
  auto opts = std::make_shared<BenchOptions>();
  auto* cmd = app.add_subcommand("bench", "Time the simulator on a large synthetic workload");
  cmd->add_option("--gpu", opts->gpu, "catalog id or .toml file");
  cmd->add_option("--kernels", opts->kernels, "number of kernels")->check(CLI::Range(1L, 100000000L));
  cmd->add_flag("--distinct", opts->distinct, "give every kernel its own shape (no cache hits)");
  add_output_options(cmd, opts->out);
  cmd->callback([opts, &ctx] {
    using clock = std::chrono::steady_clock;
    const auto gpu = ctx.catalog.load(opts->gpu);
    const auto t0 = clock::now();
    const auto w = synthetic(opts->kernels, opts->distinct);
    const auto t1 = clock::now();
    sim::Simulator s(gpu);
    const auto p = s.predict(w);
    const auto t2 = clock::now();
    const double build_s = std::chrono::duration<double>(t1 - t0).count();
    const double predict_s = std::chrono::duration<double>(t2 - t1).count();
    using reports::vega::obj;
    reports::Report r;
    r.title = "Simulator benchmark on " + gpu.id;
    r.summary.push_back(std::to_string(w.size()) + " kernels (" +
                        (opts->distinct ? "all shapes distinct" : "shapes repeat per layer") + ") on " + gpu.id +
                        ": built in " + reports::fixed(build_s, 3) + " s, predicted in " + reports::fixed(predict_s, 3) +
                        " s (" + reports::count(w.size() / predict_s) + " kernels/s, one core); predicted total " +
                        reports::duration(p.total_us));
    reports::Table t({{"kernels"}, {"shapes"}, {"build_s"}, {"predict_s"}, {"kernels_per_s"}, {"predicted_total_us"}});
    t.add_row({std::to_string(w.size()), opts->distinct ? "distinct" : "repeating", reports::format_number(build_s),
               reports::format_number(predict_s), reports::format_number(w.size() / predict_s),
               reports::format_number(p.total_us)});
    r.csv = t;
    r.json = obj({{"gpu", gpu.id}, {"kernels", long(w.size())}, {"distinct_shapes", opts->distinct},
                  {"build_s", build_s}, {"predict_s", predict_s}, {"kernels_per_s", w.size() / predict_s},
                  {"predicted_total_us", p.total_us}});
    r.inputs = {{"GPU", gpu.id}, {"kernels", std::to_string(w.size())}};
    write_report(ctx, r, opts->out);
  });
}

}  // namespace gpucast::cli
