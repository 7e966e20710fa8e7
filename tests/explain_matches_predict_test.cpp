// `explain` shows the predictor's own ranking: its first option is the prediction, for every op of
// the stored validation sets on both measured GPUs, and the CLI's explain total equals predict's.
#include <catch2/catch.hpp>

#include "calibration/validation_report.h"
#include "hardware/catalog.h"
#include "reports/json.h"
#include "sim/op_predictor.h"
#include "support/cli_runner.h"
#include "support/temp_dir.h"

using namespace gpucast;

SCENARIO("the first option explain ranks is the prediction, for every validation op") {
  const hw::Catalog catalog(test::source_dir() / "hardware");
  for (const char* gpu : {"h100-sxm", "h200-sxm"}) {
    sim::OpPredictor predictor(catalog.load(gpu));
    const auto ops =
        calib::validation_ops((test::source_dir() / "validation" / gpu / "kernels.json").string());
    REQUIRE(ops.size() > 600);
    for (const auto& [id, op] : ops) {
      INFO(gpu << " " << id);
      std::vector<sim::OpTiming> ranked;
      try {
        ranked = predictor.rank_options(op);
      } catch (const Error&) {
        continue;  // an op the GPU cannot run fails both ways
      }
      const auto& predicted = predictor.predict(op);
      CHECK(ranked.front().option == predicted.option);
      CHECK(ranked.front().duration_us == predicted.duration_us);
      for (size_t i = 1; i < ranked.size(); ++i) CHECK(ranked[i - 1].duration_us <= ranked[i].duration_us);
    }
  }
}

SCENARIO(
    "gpucast explain's chosen option totals what gpucast predict says, for a GEMM, an attention and a row "
    "op") {
  const std::vector<std::vector<std::string>> ops{{"gemm", "m=1", "n=4096", "k=4096", "dtype=bf16"},
                                                  {"attention", "batch=2", "heads=32", "kv_heads=8",
                                                   "seq_q=1", "seq_kv=4096", "head_dim=128", "dtype=bf16"},
                                                  {"softmax", "rows=4096", "cols=32000", "dtype=fp32"}};
  for (const auto& words : ops) {
    INFO(words.front());
    std::vector<std::string> args{"explain", "--gpu", "h100-sxm"};
    args.insert(args.end(), words.begin(), words.end());
    args.insert(args.end(), {"--format", "json"});
    const auto r = test::run_gpucast(args);
    REQUIRE(r.exit_code == 0);
    const auto j = reports::Json::parse(r.out, "explain");
    const auto& chosen = j.at("options").as_array().front();
    CHECK(chosen.at("chosen").as_bool());
    CHECK(chosen.at("duration_us").as_number() == Approx(j.at("duration_us").as_number()));
    CHECK(chosen.at("option").as_string() == j.at("option").as_string());

    // The same op as a one-kernel workload through predict.
    test::TempDir dir;
    std::string toml = "[[kernel]]\nop = \"" + words.front() + "\"\n";
    for (size_t i = 1; i < words.size(); ++i) {
      const auto eq = words[i].find('=');
      const std::string v = words[i].substr(eq + 1);
      const bool bare = std::isdigit(static_cast<unsigned char>(v[0]));
      toml += words[i].substr(0, eq) + " = " + (bare ? v : "\"" + v + "\"") + "\n";
    }
    const auto file = dir.write("op.toml", toml);
    const auto p =
        test::run_gpucast({"predict", "--gpu", "h100-sxm", "--workload", file.string(), "--format", "json"});
    REQUIRE(p.exit_code == 0);
    const auto pj = reports::Json::parse(p.out, "predict");
    INFO(p.out.substr(0, 400));
    const auto& kernel = pj.at("kernels").as_array().front();
    CHECK(kernel.at("duration_us").as_number() == Approx(j.at("duration_us").as_number()));
  }
}
