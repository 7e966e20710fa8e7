// `gpucast bench`: how fast the simulator predicts large workloads. Cost should grow with the
// number of kernels (and distinct shapes), never with threads or blocks.
#include <algorithm>
#include <chrono>
#include <ctime>
#include <memory>

#include "cli/commands.h"
#include "cli/output.h"
#include "common/huge_pages.h"
#include "common/toml_source.h"
#include "reports/units.h"
#include "reports/vega.h"
#include "sim/simulator.h"
#include "workloads/workload_file.h"

namespace gpucast::cli {
namespace {
struct BenchOptions {
  std::string gpu = "h100-sxm";
  long kernels = 100000;
  bool distinct = false;
  long load_kernels = 0;  // > 0: also time loading a workload file of this many kernels
  OutputOptions out;
};

// Transformer-block-like kernels: GEMMs, attention, norms, pointwise. With `distinct`, every
// kernel gets its own shape so that nothing is served from the prediction cache.
wl::Workload synthetic(long n, bool distinct) {
  std::vector<wl::Kernel> kernels;
  reserve_large(kernels, static_cast<size_t>(n));
  for (long i = 0; i < n; ++i) {
    const long layer = i / 8;
    const wl::Count tokens = distinct ? 512 + 16 * (i % 4096) : 8192;
    wl::Kernel& k = kernels.emplace_back();  // built in place: a Kernel is a few hundred bytes
    k.name = "k" + std::to_string(i);
    switch (i % 8) {
      case 0:
        k.op = wl::RowOp{wl::RowOpKind::rmsnorm, tokens, 4096, DataType::bf16};
        break;
      case 1:
        k.op = wl::GemmOp{tokens, 6144, 4096, 1, DataType::bf16, DataType::bf16};
        break;
      case 2:
        k.op = wl::AttentionOp{4, 32, 8, tokens / 4, tokens / 4, 128, true, DataType::bf16};
        break;
      case 3:
        k.op = wl::GemmOp{tokens, 4096, 4096, 1, DataType::bf16, DataType::bf16};
        break;
      case 4:
        k.op = wl::ElementwiseOp{tokens * 4096, DataType::bf16, DataType::bf16, 2, 1, 1};
        break;
      case 5:
        k.op = wl::GemmOp{tokens, 28672, 4096, 1, DataType::bf16, DataType::bf16};
        break;
      case 6:
        k.op = wl::ElementwiseOp{tokens * 14336, DataType::bf16, DataType::bf16, 2, 1, 5};
        break;
      default:
        k.op = wl::GemmOp{tokens, 4096, 14336, 1, DataType::bf16, DataType::bf16};
        break;
    }
    (void)layer;
  }
  return wl::Workload::build(distinct ? "synthetic-distinct" : "synthetic", wl::LaunchMode::graph,
                             std::move(kernels));
}
struct LoadTiming {
  long kernels = 0;
  double bytes = 0;
  double toml_parse_s = 0;      // TOML++ alone
  double load_s = 0;            // gpucast's whole load: parse, check, build the workload, free the document
  double toml_parse_cpu_s = 0;  // the same in CPU time (steadier on a shared machine)
  double load_cpu_s = 0;
  // The load's CPU time by phase (of the run with the least total): they sum to load_cpu_s.
  double parse_cpu_s = 0;
  double build_cpu_s = 0;
  double free_cpu_s = 0;
};

// Seconds of CPU time this process has used (one thread runs here, so: of one core).
double cpu_seconds() {
  return double(std::clock()) / CLOCKS_PER_SEC;
}

// Writes the synthetic workload as a workload file (text in memory, as read from disk), then
// times TOML++ parsing it and gpucast loading it; best of three runs each.
LoadTiming time_file_load(long n) {
  using clock = std::chrono::steady_clock;
  const std::string text = wl::write_workload(synthetic(n, true));
  LoadTiming t;
  t.kernels = n;
  t.bytes = double(text.size());
  t.toml_parse_s = t.load_s = t.toml_parse_cpu_s = t.load_cpu_s = 1e30;
  for (int run = 0; run < 3; ++run) {
    const double c0 = cpu_seconds();
    const auto t0 = clock::now();
    auto table =
        std::make_unique<toml::table>(toml::parse(std::string_view(text), std::string_view("bench.toml")));
    const double c1 = cpu_seconds();
    const auto t1 = clock::now();
    if (table->empty()) throw Error("bench: the file did not parse");
    table.reset();  // outside both timings: TOML++'s figure is its parse alone
    const double c1b = cpu_seconds();
    const auto t1b = clock::now();
    // read_workload_text's three steps, timed apart: parse, check and build, free the document.
    auto doc = std::make_unique<toml::table>(parse_toml_text(text, "bench.toml"));
    const double c_parsed = cpu_seconds();
    const auto w = wl::read_workload_table(*doc, "bench.toml");
    const double c_built = cpu_seconds();
    doc.reset();
    const double c2 = cpu_seconds();
    const auto t2 = clock::now();
    if (w.size() != size_t(n)) throw Error("bench: the file did not load whole");
    t.toml_parse_s = std::min(t.toml_parse_s, std::chrono::duration<double>(t1 - t0).count());
    t.load_s = std::min(t.load_s, std::chrono::duration<double>(t2 - t1b).count());
    t.toml_parse_cpu_s = std::min(t.toml_parse_cpu_s, c1 - c0);
    if (c2 - c1b < t.load_cpu_s) {
      t.load_cpu_s = c2 - c1b;
      t.parse_cpu_s = c_parsed - c1b;
      t.build_cpu_s = c_built - c_parsed;
      t.free_cpu_s = c2 - c_built;
    }
  }
  return t;
}
}  // namespace

void add_bench_command(CLI::App& app, AppContext& ctx) {
  auto opts = std::make_shared<BenchOptions>();
  auto* cmd = app.add_subcommand("bench", "Time the simulator on a large synthetic workload");
  cmd->add_option("--gpu", opts->gpu, "catalog id or .toml file");
  cmd->add_option("--kernels", opts->kernels, "number of kernels")->check(CLI::Range(1L, 100000000L));
  cmd->add_flag("--distinct", opts->distinct, "give every kernel its own shape (no cache hits)");
  cmd->add_option("--load", opts->load_kernels,
                  "also time loading a workload file of this many kernels against TOML++'s parse alone")
      ->check(CLI::Range(0L, 10000000L));
  add_output_options(cmd, opts->out);
  cmd->callback([opts, &ctx] {
    using clock = std::chrono::steady_clock;
    const auto gpu = ctx.catalog.load(opts->gpu);
    // The million-kernel workload and its prediction live only while they are timed: the file-load
    // timing below then starts from a freed heap, and the bench's peak is the larger phase's.
    double c0 = 0, c1 = 0, c2 = 0, total_us = 0;
    clock::time_point t0, t1, t2;
    size_t kernels = 0;
    {
      c0 = cpu_seconds();
      t0 = clock::now();
      const auto w = synthetic(opts->kernels, opts->distinct);
      c1 = cpu_seconds();
      t1 = clock::now();
      sim::Simulator s(gpu);
      const auto p = s.predict(w);
      c2 = cpu_seconds();
      t2 = clock::now();
      kernels = w.size();
      total_us = p.total_us;
    }
    const double build_s = std::chrono::duration<double>(t1 - t0).count();
    const double predict_s = std::chrono::duration<double>(t2 - t1).count();
    const double build_cpu_s = c1 - c0, predict_cpu_s = c2 - c1;
    using reports::vega::obj;
    reports::Report r;
    r.title = "Simulator benchmark on " + gpu.id;
    r.summary.push_back(std::to_string(kernels) + " kernels (" +
                        (opts->distinct ? "all shapes distinct" : "shapes repeat per layer") + ") on " +
                        gpu.id + ": built in " + reports::fixed(build_s, 3) + " s, predicted in " +
                        reports::fixed(predict_s, 3) + " s (" + reports::count(kernels / predict_s) +
                        " kernels/s, one core); CPU time " + reports::fixed(build_cpu_s, 3) + " s + " +
                        reports::fixed(predict_cpu_s, 3) + " s; predicted total " +
                        reports::duration(total_us));
    reports::Table t({{"kernels"},
                      {"shapes"},
                      {"build_s"},
                      {"predict_s"},
                      {"kernels_per_s"},
                      {"build_cpu_s"},
                      {"predict_cpu_s"},
                      {"predicted_total_us"}});
    t.add_row({std::to_string(kernels), opts->distinct ? "distinct" : "repeating",
               reports::format_number(build_s), reports::format_number(predict_s),
               reports::format_number(kernels / predict_s), reports::format_number(build_cpu_s),
               reports::format_number(predict_cpu_s), reports::format_number(total_us)});
    r.csv = t;
    r.json = obj({{"gpu", gpu.id},
                  {"kernels", long(kernels)},
                  {"distinct_shapes", opts->distinct},
                  {"build_s", build_s},
                  {"predict_s", predict_s},
                  {"kernels_per_s", kernels / predict_s},
                  {"build_cpu_s", build_cpu_s},
                  {"predict_cpu_s", predict_cpu_s},
                  {"predicted_total_us", total_us}});
    r.inputs = {{"GPU", gpu.id}, {"kernels", std::to_string(kernels)}};
    if (opts->load_kernels > 0) {
      const LoadTiming l = time_file_load(opts->load_kernels);
      const double ratio = l.load_s / l.toml_parse_s;
      const double cpu_ratio = l.toml_parse_cpu_s > 0 ? l.load_cpu_s / l.toml_parse_cpu_s : 0;
      r.summary.push_back("Loading a " + std::to_string(l.kernels) + "-kernel workload file (" +
                          reports::fixed(l.bytes / 1e6, 1) + " MB): " + reports::fixed(l.load_s, 3) +
                          " s, TOML++'s parse alone " + reports::fixed(l.toml_parse_s, 3) + " s (" +
                          reports::fixed(ratio, 2) + "x); in CPU time " + reports::fixed(l.load_cpu_s, 3) +
                          " s against " + reports::fixed(l.toml_parse_cpu_s, 3) + " s (" +
                          reports::fixed(cpu_ratio, 2) + "x: parse " + reports::fixed(l.parse_cpu_s, 3) +
                          " s, check and build " + reports::fixed(l.build_cpu_s, 3) +
                          " s, free the document " + reports::fixed(l.free_cpu_s, 3) + " s)");
      r.json.set("load", obj({{"kernels", l.kernels},
                              {"bytes", l.bytes},
                              {"toml_parse_s", l.toml_parse_s},
                              {"load_s", l.load_s},
                              {"load_over_parse", ratio},
                              {"toml_parse_cpu_s", l.toml_parse_cpu_s},
                              {"load_cpu_s", l.load_cpu_s},
                              {"load_over_parse_cpu", cpu_ratio},
                              {"load_parse_cpu_s", l.parse_cpu_s},
                              {"load_build_cpu_s", l.build_cpu_s},
                              {"load_free_cpu_s", l.free_cpu_s}}));
      r.inputs.push_back({"load kernels", std::to_string(l.kernels)});
    }
    write_report(ctx, r, opts->out);
  });
}

}  // namespace gpucast::cli
