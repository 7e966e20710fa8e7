// compare, cost and sweep end to end through the gpucast executable: answers, formats and errors.
#include <catch2/catch.hpp>

#include "reports/json.h"
#include "support/cli_runner.h"

using namespace gpucast;
using test::parse_csv;
using test::run_gpucast;

namespace {
const std::string kBlock = "workloads/examples/llama3-8b-block.toml";

}  // namespace

SCENARIO("cost reproduces the seed article's break-even as a plain calculator") {
  const auto r = run_gpucast({"cost", "--desktop-usd", "2200", "--gpu-watts", "350", "--cloud-usd-per-hour", "2.14",
                              "--format", "json"});
  REQUIRE(r.exit_code == 0);
  const auto j = reports::Json::parse(r.out, "cost json");
  CHECK(j.at("break_even_days").as_number() == Approx(293).margin(1));
  CHECK(j.at("owned_usd_per_year").as_number() > 0);
  CHECK(j.at("cloud_usd_per_year").as_number() == Approx(2.14 * 8760 * 0.15));
  CHECK(j.at("cheaper").as_string() == "owned");
  CHECK_THAT(j.at("answer").as_string(), Catch::Contains("293 days"));
}

SCENARIO("cost with a GPU and a model reports the cost per result and a power-limit slowdown") {
  const auto r = run_gpucast({"cost", "--gpu", "rtx-4090", "--model", "llama-3-8b", "--mode", "decode", "--batch", "8",
                              "--power-limit-w", "350", "--format", "json"});
  REQUIRE(r.exit_code == 0);
  const auto j = reports::Json::parse(r.out, "cost json");
  CHECK(j.at("per_result").at("unit").as_string() == "1M tokens");
  CHECK(j.at("per_result").at("owned_usd").as_number() > 0);
  const auto& cap = j.at("power_limit");
  CHECK(cap.at("clock_fraction").as_number() < 1);
  // Decode is memory bound: the cap costs far less than the clock drop.
  CHECK(cap.at("slowdown").as_number() < 0.5 * (1 / cap.at("clock_fraction").as_number() - 1));
  CHECK(j.at("inputs").at("gpu_watts").as_number() == 350);
}

SCENARIO("cost without a GPU needs the values the catalog would give") {
  const auto r = run_gpucast({"cost", "--desktop-usd", "2200"});
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Catch::Contains("--gpu-watts"));
}

SCENARIO("compare ranks GPUs and flags the ones a model does not fit on") {
  const auto r = run_gpucast({"compare", "--gpus", "rtx-4090,h100-sxm,a100-sxm-80g", "--model", "llama-2-70b", "--mode",
                              "decode", "--format", "json"});
  REQUIRE(r.exit_code == 0);
  const auto j = reports::Json::parse(r.out, "compare json");
  const auto& gpus = j.at("gpus").as_array();
  REQUIRE(gpus.size() == 3);
  CHECK(gpus.back().at("gpu").as_string() == "rtx-4090");
  CHECK_FALSE(gpus.back().at("fits").as_bool());
  CHECK(gpus.front().at("rank").as_integer() == 1);
  CHECK(gpus.front().at("time_us").as_number() <= gpus[1].at("time_us").as_number());
}

SCENARIO("compare CSV has one row per GPU under stable columns") {
  const auto r = run_gpucast({"compare", "--gpus", "l4,l40s", "--workload", kBlock, "--rank", "perf-per-usd",
                              "--format", "csv"});
  REQUIRE(r.exit_code == 0);
  const auto rows = parse_csv(r.out);
  REQUIRE(rows.size() == 3);
  CHECK(rows[0] == std::vector<std::string>{"rank", "gpu", "time_us", "throughput", "throughput_unit", "speedup",
                                            "bound", "fits", "peak_gb", "capacity_gb", "price_usd", "gpu_watts",
                                            "throughput_per_kusd", "throughput_per_watt", "result",
                                            "owned_usd_per_result", "rented_usd_per_result", "cloud_provider", "error"});
  CHECK(std::stod(rows[1][12]) >= std::stod(rows[2][12]));  // best perf per $1k first
}

SCENARIO("compare refuses a baseline that is not compared") {
  const auto r = run_gpucast({"compare", "--gpus", "l4,l40s", "--workload", kBlock, "--baseline", "h100-sxm"});
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Catch::Contains("--baseline h100-sxm is not among --gpus"));
}

SCENARIO("a sweep over bandwidth shows memory-bound time falling") {
  const auto r = run_gpucast({"sweep", "--gpu", "h100-sxm", "--model", "llama-3-8b", "--mode", "decode", "--layers",
                              "1", "--vary", "memory.bandwidth_gbps=1000:4000:1000", "--format", "csv"});
  REQUIRE(r.exit_code == 0);
  const auto rows = parse_csv(r.out);
  REQUIRE(rows.size() == 5);
  CHECK(rows[0].front() == "memory.bandwidth_gbps");
  CHECK(rows[0][1] == "time_us");
  for (size_t i = 2; i < rows.size(); ++i) CHECK(std::stod(rows[i][1]) < std::stod(rows[i - 1][1]));
  CHECK(rows[1][7] == "memory");
}

SCENARIO("a sweep over batch finds where decode stops being memory bound or says it does not") {
  const auto r = run_gpucast({"sweep", "--gpu", "h100-sxm", "--model", "llama-3-8b", "--mode", "prefill", "--seq",
                              "128", "--layers", "1", "--vary", "batch=1:64:*4", "--format", "json"});
  REQUIRE(r.exit_code == 0);
  const auto j = reports::Json::parse(r.out, "sweep json");
  const auto& points = j.at("points").as_array();
  REQUIRE(points.size() == 4);
  CHECK(points.front().at("values").at("batch").as_string() == "1");
  CHECK(points.back().at("bound").as_string() == "compute");
  CHECK(points.back().at("throughput").as_number() > points.front().at("throughput").as_number());
}

SCENARIO("a bad --vary spec stops the sweep before it runs, with the reason") {
  const auto r = run_gpucast({"sweep", "--gpu", "h100-sxm", "--workload", kBlock, "--vary", "memory.bandwith_gbps=1:2:1"});
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Catch::Contains("unknown key 'memory.bandwith_gbps'") && Catch::Contains("memory.bandwidth_gbps"));
  CHECK(r.out.empty());
  const auto w = run_gpucast({"sweep", "--gpu", "h100-sxm", "--workload", kBlock, "--vary", "batch=1,2"});
  CHECK(w.exit_code == 2);
  CHECK_THAT(w.err, Catch::Contains("needs --model"));
}

SCENARIO("a host-bound FSDP2 rank says what would change it, DDP among the alternatives") {
  const auto r = run_gpucast({"predict", "--gpus", "4xh100-sxm", "--host", "h100-box", "--precision", "amp",
                              "--mode", "train", "--model", "gpt2", "--seq", "1024", "--batch", "8", "--dp",
                              "4", "--zero", "fsdp"});
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.out, Catch::Contains("HOST-BOUND"));
  CHECK_THAT(r.out, Catch::Contains("fsdp hooks"));
  CHECK_THAT(r.out, Catch::Contains("DDP instead of FSDP2"));
  CHECK_THAT(r.out, Catch::Contains("faster CPU"));
}
