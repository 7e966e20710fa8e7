// Owning and renting several GPUs: the cost model scales purchase, power and rent with the GPU count
// (models/cost/multi_gpu.h), `cost` takes --gpus/--system and prices the GPUs a layout uses, and a
// system's prediction charges the host that issues each rank's work.
#include <catch2/catch.hpp>

#include "common/errors.h"
#include "models/cost/multi_gpu.h"
#include "reports/json.h"
#include "support/cli_runner.h"

using namespace gpucast;
using test::run_gpucast;

namespace {
models::cost::CostInputs one_gpu() {
  models::cost::CostInputs in;
  in.owned.purchase_usd = 30000;
  in.owned.busy_watts = 1000;
  in.owned.usd_per_kwh = 0.1;
  in.cloud_usd_per_hour = 3;
  in.utilization = 0.5;
  in.years = 3;
  return in;
}
}  // namespace

SCENARIO("N GPUs cost N times one GPU's purchase, power and rent; utilization and horizon stay") {
  const auto in = models::cost::for_gpus(one_gpu(), 8);
  CHECK(in.owned.purchase_usd == 240000);
  CHECK(in.owned.busy_watts == 8000);
  CHECK(in.cloud_usd_per_hour == 24);
  CHECK(in.owned.usd_per_kwh == 0.1);
  CHECK(in.utilization == 0.5);
  CHECK(in.years == 3);
  // Cost per busy hour is N times one GPU's: a job that runs N times faster costs the same per result.
  const auto one = models::cost::compare_costs(one_gpu());
  const auto eight = models::cost::compare_costs(in);
  CHECK(eight.owned_usd_per_busy_hour == Approx(8 * one.owned_usd_per_busy_hour));
  CHECK(eight.break_even_days.value() == Approx(one.break_even_days.value()));
}

SCENARIO("a system's published price replaces the per-GPU prices; no GPUs is an error") {
  CHECK(models::cost::for_gpus(one_gpu(), 8, 300000.0).owned.purchase_usd == 300000);
  CHECK(models::cost::for_gpus(one_gpu(), 1).owned.purchase_usd == 30000);
  CHECK_THROWS_AS(models::cost::for_gpus(one_gpu(), 0), UsageError);
  CHECK_THROWS_AS(models::cost::for_gpus(one_gpu(), 2, -1.0), UsageError);
}

SCENARIO("cost --gpus prices every GPU of a node, and only the GPUs a layout uses") {
  const std::vector<std::string> prices{
      "--gpu-usd",    "20000", "--desktop-usd",        "5000", "--gpu-watts", "700",
      "--host-watts", "300",   "--cloud-usd-per-hour", "2",    "--format",    "json"};
  auto args = std::vector<std::string>{"cost", "--gpus", "8xh100-sxm"};
  args.insert(args.end(), prices.begin(), prices.end());
  auto r = run_gpucast(args);
  REQUIRE(r.exit_code == 0);
  auto j = reports::Json::parse(r.out, "cost json");
  CHECK(j.at("gpus").as_number() == 8);
  CHECK(j.at("system").as_string() == "8xh100-sxm");
  CHECK(j.at("inputs").at("purchase_usd").as_number() == 8 * 25000);
  CHECK(j.at("inputs").at("cloud_usd_per_hour").as_number() == 16);

  args = {"cost", "--gpus", "8xh100-sxm", "--model", "llama-3-70b", "--mode", "decode", "--tp", "4"};
  args.insert(args.end(), prices.begin(), prices.end());
  r = run_gpucast(args);
  REQUIRE(r.exit_code == 0);
  j = reports::Json::parse(r.out, "cost json");
  CHECK(j.at("gpus").as_number() == 4);
  CHECK(j.at("inputs").at("cloud_usd_per_hour").as_number() == 8);
  const auto& per = j.at("per_result");
  CHECK(per.at("cloud_usd").as_number() == Approx(8 / per.at("results_per_hour").as_number()));
}

SCENARIO("cost takes one of --gpu, --gpus and --system, and a layout must fit the system") {
  auto r = run_gpucast({"cost", "--gpu", "h100-sxm", "--gpus", "8xh100-sxm"});
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Catch::Contains("one of --gpu, --gpus"));
  r = run_gpucast({"cost", "--gpus", "2xh100-sxm", "--model", "llama-3-70b", "--tp", "4"});
  CHECK(r.exit_code != 0);
  CHECK_THAT(r.err, Catch::Contains("more GPUs than the system"));
}

SCENARIO("a prediction on a system charges the host given with --host or --set host.KEY") {
  const std::string block = "workloads/examples/llama3-8b-block.toml";
  auto host_us = [&](std::vector<std::string> extra) {
    std::vector<std::string> args{"predict", "--gpus", "2xh100-sxm", "--workload", block, "--format", "json"};
    args.insert(args.end(), extra.begin(), extra.end());
    const auto r = run_gpucast(args);
    REQUIRE(r.exit_code == 0);
    const auto j = reports::Json::parse(r.out, "predict json");
    return std::make_pair(j.at("host_us").as_number(), j.at("kernels").as_array().size());
  };
  const auto [slow_us, kernels] = host_us({"--set", "host.cuda.launch_us=200"});
  const auto [default_us, k2] = host_us({});
  // Every kernel's launch is host work: 200 us each at least (the rank used to get no host at all).
  CHECK(slow_us >= 200.0 * kernels);
  CHECK(slow_us > default_us);
}

SCENARIO("compare takes NxGPU shorthands and system ids beside GPU names, and a system as baseline") {
  const auto r = run_gpucast({"compare", "--gpus", "8xh100-sxm,hgx-h200", "--baseline", "hgx-h200", "--model",
                              "llama-3-70b", "--mode", "decode", "--tp", "8", "--format", "json"});
  REQUIRE(r.exit_code == 0);
  (void)reports::Json::parse(r.out, "compare json");  // well-formed
  CHECK(r.out.find("8xh100-sxm") != std::string::npos);
  CHECK(r.out.find("hgx-h200") != std::string::npos);
  CHECK_THAT(r.err, !Catch::Contains("unknown GPU"));
}
