// Every command's output formats as scripts and people read them: JSON that conforms to the
// documented schema (docs/schemas/), CSV with its documented columns, Markdown tables, and HTML
// that holds each chart with its specification and the inlined chart libraries.
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>

#include "reports/json.h"
#include "support/cli_runner.h"
#include "support/json_schema.h"
#include "support/temp_dir.h"

using namespace gpucast;
using test::parse_csv;
using test::run_gpucast;

namespace {
const std::string kBlock = "workloads/examples/llama3-8b-block.toml";

struct Example {
  std::string schema;
  std::vector<std::string> args;
};

// One example per command (and per JSON shape: one GPU and several; a calculator and a GPU).
const std::vector<Example>& examples() {
  static const std::vector<Example> kExamples{
      {"predict", {"predict", "--gpu", "h100-sxm", "--workload", kBlock}},
      {"predict", {"predict", "--gpu", "h100-sxm,rtx-4090", "--workload", kBlock}},
      {"predict", {"predict", "--gpu", "rtx-4090", "--model", "llama-3-8b", "--mode", "decode", "--layers", "2"}},
      {"predict", {"predict", "--gpu", "a100-sxm-80g", "--model", "resnet50", "--mode", "train", "--batch", "32"}},
      {"predict", {"predict", "--gpu", "h100-sxm", "--trace", "tests/data/traces/linking.json"}},
      {"compare", {"compare", "--gpus", "l4,rtx-4090,h100-sxm", "--model", "llama-2-7b", "--mode", "decode"}},
      {"cost", {"cost", "--desktop-usd", "2200", "--gpu-watts", "350", "--cloud-usd-per-hour", "2.14"}},
      {"cost", {"cost", "--gpu", "h100-sxm", "--workload", kBlock, "--power-limit-w", "500"}},
      {"sweep", {"sweep", "--gpu", "h100-sxm", "--workload", kBlock, "--vary", "memory.bandwidth_gbps=2000,4000"}},
      {"validate", {"validate", "--gpu", "calibrated/h100-sxm", "--offline", "validation/h100-sxm/kernels.json"}},
      {"hw-list", {"hw", "list"}},
      {"explain", {"explain", "--gpu", "h100-sxm", "gemm", "m=1", "n=4096", "k=4096", "dtype=bf16"}},
      {"bench", {"bench", "--kernels", "1000"}},
  };
  return kExamples;
}

std::vector<std::string> with(std::vector<std::string> args, std::initializer_list<std::string> more) {
  args.insert(args.end(), more);
  return args;
}

std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::vector<std::string> header(const std::vector<std::string>& args) {
  const auto r = run_gpucast(with(args, {"--format", "csv"}));
  REQUIRE(r.exit_code == 0);
  return parse_csv(r.out).at(0);
}
}  // namespace

SCENARIO("every command's JSON conforms to its documented schema") {
  for (const auto& ex : examples()) {
    INFO("gpucast " << ex.args.front() << " (" << ex.schema << ")");
    const auto r = run_gpucast(with(ex.args, {"--format", "json"}));
    REQUIRE(r.exit_code == 0);
    const auto doc = reports::Json::parse(r.out, ex.schema + " output");
    const auto violations = test::schema_violations(doc, test::load_schema(ex.schema));
    for (const auto& v : violations) UNSCOPED_INFO(v);
    CHECK(violations.empty());
  }
}

SCENARIO("the schema check catches a document that breaks the schema") {
  const auto schema = test::load_schema("bench");
  auto doc = reports::Json::parse(R"({"gpu": "x", "kernels": 1.5, "distinct_shapes": false, "build_s": 0,
      "predict_s": 0, "kernels_per_s": 0, "build_cpu_s": 0, "predict_cpu_s": 0, "predicted_total_us": 0,
      "surprise": 1})", "doc");
  const auto v = test::schema_violations(doc, schema);
  CHECK(v.size() == 2);  // kernels is not an integer; "surprise" is undocumented
}

SCENARIO("every CSV parses into rows of its documented columns") {
  CHECK(header({"predict", "--gpu", "h100-sxm", "--workload", kBlock}) ==
        std::vector<std::string>{"gpu", "workload", "name", "op", "shape", "stream", "start_us", "end_us", "duration_us",
                                 "attributed_us", "bound", "flops", "dram_bytes", "achieved_tflops", "achieved_gbps",
                                 "sol_pipe", "sol_compute_pct", "sol_memory_pct", "sol_bound_pct", "host", "host_begin_us", "issue_us", "host_us",
                                 "host_bound"});
  CHECK(header({"sweep", "--gpu", "h100-sxm", "--workload", kBlock, "--vary", "cache.l2_mb=25,50"}) ==
        std::vector<std::string>{"cache.l2_mb", "time_us", "throughput", "throughput_unit", "results_per_s", "fits",
                                 "peak_gb", "bound", "compute_share", "memory_share", "latency_share", "launch_share",
                                 "host_share", "error"});
  CHECK(header({"validate", "--gpu", "h100-sxm", "--offline", "validation/h100-sxm/kernels.json"}) ==
        std::vector<std::string>{"case", "split", "family", "op", "shape", "measured_us", "predicted_us", "error",
                                 "bound", "predicted_kernel", "measured_kernels", "sol_pipe",
                                 "measured_sol_compute_pct", "measured_sol_memory_pct", "measured_sol_bound_pct",
                                 "predicted_sol_bound_pct"});
  CHECK(header({"cost", "--gpu", "rtx-4090"}) == std::vector<std::string>{"option", "usd_per_year", "usd_over_horizon",
                                                                          "usd_per_busy_hour", "usd_per_result",
                                                                          "result", "break_even_days"});
  CHECK(header({"hw", "list"}).at(0) == "id");
  CHECK(header({"explain", "--gpu", "h100-sxm", "gemm", "m=64", "n=64", "k=64", "dtype=bf16"}).at(4) == "option_exec_us");
  CHECK(header({"bench", "--kernels", "100"}).at(3) == "predict_s");

  // Rows are as long as the header, and numbers parse: scripts can rely on them.
  const auto r = run_gpucast({"predict", "--gpu", "h100-sxm,l4", "--workload", kBlock, "--format", "csv"});
  REQUIRE(r.exit_code == 0);
  const auto rows = parse_csv(r.out);
  REQUIRE(rows.size() == 1 + 2 * 11);
  for (const auto& row : rows) CHECK(row.size() == rows.front().size());
  for (size_t i = 1; i < rows.size(); ++i) CHECK(std::stod(rows[i][8]) > 0);
}

SCENARIO("Markdown output is headed tables") {
  const auto r = run_gpucast({"predict", "--gpu", "h100-sxm", "--workload", kBlock, "--format", "markdown"});
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.out, Catch::StartsWith("## llama3-8b-block"));
  CHECK_THAT(r.out, Catch::Contains("| kernel | op | shape |"));
  CHECK_THAT(r.out, Catch::Contains("| ---: |"));
}

SCENARIO("terminal tables carry units") {
  const auto r = run_gpucast({"predict", "--gpu", "h100-sxm", "--workload", kBlock});
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.out, Catch::Contains(" ms total"));
  CHECK_THAT(r.out, Catch::Contains("TFLOP/s"));
  CHECK_THAT(r.out, Catch::Contains("TB/s of DRAM traffic"));
}

SCENARIO("the HTML report holds every chart, its specification and the chart libraries") {
  test::TempDir dir;
  const auto html_path = (dir.path() / "report.html").string();
  const auto r = run_gpucast({"predict", "--gpu", "h100-sxm", "--workload", kBlock, "--html", html_path});
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.out, Catch::Contains("ms total"));  // the terminal output still comes
  const std::string html = slurp(html_path);
  for (const char* id : {"roofline", "time-by-op", "time-by-bound", "timeline"}) {
    INFO(id);
    CHECK_THAT(html, Catch::Contains(std::string("data-chart=\"r0-") + id + "\""));
    const std::string open = std::string("<script type=\"application/json\" id=\"spec-r0-") + id + "\">";
    const auto at = html.find(open);
    REQUIRE(at != std::string::npos);
    const auto end = html.find("</script>", at);
    const auto spec = reports::Json::parse(html.substr(at + open.size(), end - at - open.size()), id);
    CHECK_THAT(spec.at("$schema").as_string(), Catch::Contains("vega-lite"));
  }
  CHECK_THAT(html, Catch::Contains("vegaEmbed"));
  CHECK_THAT(html, Catch::Contains("Inputs"));
  CHECK_THAT(html, Catch::Contains("gpucast 0.1.0"));
  CHECK(html.find("<script src=") == std::string::npos);  // nothing to fetch: it opens offline
  CHECK(html.find("https://cdn") == std::string::npos);
}

SCENARIO("the roofline draws the GPU's roofs and both bandwidth ceilings on log axes") {
  test::TempDir dir;
  const auto html_path = (dir.path() / "hw.html").string();
  REQUIRE(run_gpucast({"hw", "show", "h100-sxm", "--html", html_path}).exit_code == 0);
  const std::string html = slurp(html_path);
  CHECK_THAT(html, Catch::Contains("fp16/bf16 tensor 989 TFLOP/s"));
  CHECK_THAT(html, Catch::Contains("DRAM 3.35 TB/s"));
  CHECK_THAT(html, Catch::Contains("\"type\":\"log\""));
  CHECK_THAT(html, Catch::Contains("arithmetic intensity (FLOP per byte of DRAM traffic, log)"));
}

SCENARIO("a failing --html write leaves no output behind") {
  const auto r = run_gpucast({"predict", "--gpu", "h100-sxm", "--workload", kBlock, "--html", "/nonexistent/dir/r.html"});
  CHECK(r.exit_code == 1);
  CHECK_THAT(r.err, Catch::Contains("cannot write"));
  CHECK(r.out.empty());
}

SCENARIO("calibrate's summary conforms to its schema and the profile it writes loads") {
  test::TempDir dir;
  const auto profile = (dir.path() / "h100-refit.toml").string();
  const auto r = run_gpucast({"calibrate", "--gpu", "h100-sxm", "--from", "hardware/calibrated/h100-sxm.microbench.json",
                              "--framework", "hardware/calibrated/h100-sxm.framework.json", "--out", profile,
                              "--format", "json"});
  REQUIRE(r.exit_code == 0);
  const auto doc = reports::Json::parse(r.out, "calibrate output");
  const auto violations = test::schema_violations(doc, test::load_schema("calibrate"));
  for (const auto& v : violations) INFO(v);
  CHECK(violations.empty());
  CHECK(doc.at("values").size() > 10);
  CHECK(run_gpucast({"hw", "show", profile}).exit_code == 0);
}
