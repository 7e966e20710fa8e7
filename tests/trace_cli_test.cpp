// predict/compare/sweep --trace end to end: the report's coverage and replay validation in every
// format, --dump-workload round trip, and bad traces named with a non-zero exit.
#include <catch2/catch.hpp>

#include "reports/json.h"
#include "support/cli_runner.h"
#include "support/temp_dir.h"

using namespace gpucast;
using test::parse_csv;
using test::run_gpucast;

namespace {
const std::string kTrace = "tests/data/traces/linking.json";
}  // namespace

SCENARIO("predict --trace on the trace's own GPU reports coverage and measured against predicted") {
  const auto text = run_gpucast({"predict", "--gpu", "h100-sxm", "--trace", kTrace});
  REQUIRE(text.exit_code == 0);
  CHECK_THAT(text.out, Catch::Contains("Re-predicted by op models") && Catch::Contains("source h100-sxm") &&
                           Catch::Contains("Replay validation") && Catch::Contains("my_custom_kernel"));
  const auto json = run_gpucast({"predict", "--gpu", "h100-sxm", "--trace", kTrace, "--format", "json"});
  REQUIRE(json.exit_code == 0);
  const auto j = reports::Json::parse(json.out, "predict json");
  const auto& t = j.at("trace");
  CHECK(t.at("source_gpu").as_string() == "h100-sxm");
  CHECK(t.at("same_gpu").as_bool());
  CHECK(t.at("re_predicted_share").as_number() + t.at("scaled_share").as_number() == Approx(1.0));
  CHECK(t.at("unrecognized").as_array().size() == 1);
  CHECK(t.at("validation").at("cases").as_array().size() > 0);
  const auto csv = run_gpucast({"predict", "--gpu", "h100-sxm", "--trace", kTrace, "--format", "csv"});
  REQUIRE(csv.exit_code == 0);
  const auto rows = parse_csv(csv.out);
  REQUIRE(rows.size() == 7);
  CHECK(rows[0][11] == "measured_us");
  const auto md = run_gpucast({"predict", "--gpu", "h100-sxm", "--trace", kTrace, "--format", "markdown"});
  CHECK_THAT(md.out, Catch::Contains("Replay validation: Worst cases"));
}

SCENARIO("on another GPU the trace is predicted without a replay validation") {
  const auto r = run_gpucast({"predict", "--gpu", "h200-sxm", "--trace", kTrace, "--format", "json"});
  REQUIRE(r.exit_code == 0);
  const auto j = reports::Json::parse(r.out, "predict json");
  CHECK_FALSE(j.at("trace").at("same_gpu").as_bool());
  CHECK(j.at("trace").get("validation") == nullptr);
  const auto cmp = run_gpucast({"compare", "--gpus", "h100-sxm,h200-sxm", "--trace", kTrace});
  CHECK(cmp.exit_code == 0);
  const auto sweep = run_gpucast({"sweep", "--gpu", "h100-sxm", "--trace", kTrace, "--vary", "memory.bandwidth_gbps=2000,4000"});
  CHECK(sweep.exit_code == 0);
}

SCENARIO("--dump-workload writes a workload file that predicts the same as the trace") {
  test::TempDir dir;
  const auto file = (dir.path() / "traced.toml").string();
  const auto a = run_gpucast({"predict", "--gpu", "h100-sxm", "--trace", kTrace, "--dump-workload", file, "--format", "json"});
  REQUIRE(a.exit_code == 0);
  const auto b = run_gpucast({"predict", "--gpu", "h100-sxm", "--workload", file, "--format", "json"});
  REQUIRE(b.exit_code == 0);
  const auto ja = reports::Json::parse(a.out, "a"), jb = reports::Json::parse(b.out, "b");
  CHECK(jb.at("total_us").as_number() == Approx(ja.at("total_us").as_number()).epsilon(1e-6));
}

SCENARIO("bad traces and flags exit non-zero naming the file and the problem, writing nothing") {
  test::TempDir dir;
  const auto dump = (dir.path() / "never.toml").string();
  const auto step = run_gpucast({"predict", "--gpu", "h100-sxm", "--trace", kTrace, "--step", "99", "--dump-workload", dump});
  CHECK(step.exit_code == 1);
  CHECK_THAT(step.err, Catch::Contains("linking.json") && Catch::Contains("step 99 does not exist"));
  CHECK_FALSE(std::filesystem::exists(dump));
  for (const auto& [file, message] : std::vector<std::pair<std::string, std::string>>{
           {"bad_not_json.json", "not JSON"},
           {"bad_not_kineto.json", "not a Kineto trace"},
           {"bad_no_kernels.json", "CUDA activity was not recorded"},
           {"bad_truncated.json.gz", "truncated gzip"}}) {
    const auto r = run_gpucast({"predict", "--gpu", "h100-sxm", "--trace", "tests/data/traces/" + file});
    CHECK(r.exit_code == 1);
    CHECK_THAT(r.err, Catch::Contains(file) && Catch::Contains(message));
  }
  const auto both = run_gpucast({"predict", "--gpu", "h100-sxm", "--trace", kTrace, "--model", "gpt2"});
  CHECK(both.exit_code == 2);
  const auto stray = run_gpucast({"predict", "--gpu", "h100-sxm", "--model", "gpt2", "--step", "3"});
  CHECK(stray.exit_code == 2);
}
