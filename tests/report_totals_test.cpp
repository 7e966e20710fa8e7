// Reports add up: the by-op, by-bound and per-kernel views of every command are one split of the
// step's time (the timeline's attribution, sim/time_attribution.h), so each sums to the total the
// report states. Checked on the JSON each command prints, which every other format renders.
#include <catch2/catch.hpp>

#include "reports/json.h"
#include "sim/simulator.h"
#include "sim/time_attribution.h"
#include "support/cli_runner.h"
#include "support/gpu_builder.h"

using namespace gpucast;
using reports::Json;
using test::run_gpucast;

namespace {
Json run_json(std::vector<std::string> args) {
  args.insert(args.end(), {"--format", "json"});
  const auto r = run_gpucast(args);
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  return Json::parse(r.out, "stdout");
}
double sum(const Json& object) {
  double s = 0;
  for (const auto& [k, v] : object.as_object()) s += v.as_number();
  return s;
}
// The JSON prints ten significant digits: sums agree to that.
void check_prediction_adds_up(const Json& p) {
  const double total = p.at("total_us").as_number();
  REQUIRE(total > 0);
  CHECK(sum(p.at("time_by_op_us")) == Approx(total).epsilon(1e-8));
  CHECK(sum(p.at("time_by_bound_us")) == Approx(total).epsilon(1e-8));
  double kernels = 0;
  for (const auto& k : p.at("kernels").as_array()) kernels += k.at("attributed_us").as_number();
  const Json* host = p.at("time_by_op_us").get("host");
  CHECK(kernels + (host ? host->as_number() : 0.0) == Approx(total).epsilon(1e-8));
}
}  // namespace

SCENARIO("predict: time by op, by bound and per kernel sum to the step time") {
  WHEN("a Llama-3-8B decode step (the case whose by-bound figures summed to 13,993 us of 11,691)") {
    const auto doc = run_json(
        {"predict", "--gpu", "h100-sxm", "--model", "llama-3-8b", "--mode", "decode", "--batch", "16"});
    check_prediction_adds_up(doc);
  }
  WHEN("a workload with two overlapping streams") {
    check_prediction_adds_up(
        run_json({"predict", "--gpu", "h100-sxm", "--workload", "workloads/examples/two-streams.toml"}));
  }
  WHEN("several GPUs in one report") {
    const auto doc = run_json(
        {"predict", "--gpu", "h100-sxm,rtx-4090", "--workload", "workloads/examples/llama3-8b-block.toml"});
    const Json* list = doc.is_array() ? &doc : doc.get("predictions");
    REQUIRE(list != nullptr);
    for (const auto& p : list->as_array()) check_prediction_adds_up(p);
  }
}

SCENARIO("The attribution splits overlapping kernels and counts idle gaps once") {
  GIVEN("two kernels that overlap by half, and a gap before the first") {
    sim::Prediction p;
    sim::OpTiming t;
    t.duration_us = 10;
    p.total_us = 20;
    sim::KernelPrediction a, b;
    a.op = b.op = "gemm";
    a.timing = b.timing = &t;
    a.scheduled.start_us = 4, a.scheduled.end_us = 12;
    b.scheduled.start_us = 8, b.scheduled.end_us = 20;
    p.kernels = {a, b};
    const auto s = sim::attribute_time(p);
    THEN("the overlap is halved, the gap is idle, and all sums to the step") {
      CHECK(s.idle_us == Approx(4));
      CHECK(s.kernel_us[0] == Approx(4 + 2));
      CHECK(s.kernel_us[1] == Approx(2 + 8));
      CHECK(s.by_op.at("gemm") + s.by_op.at(sim::kIdleCategory) == Approx(20));
    }
  }
}

SCENARIO("sweep: each point's bound shares sum to one") {
  const auto doc =
      run_json({"sweep", "--gpu", "h100-sxm", "--workload", "workloads/examples/two-streams.toml", "--vary",
                "memory.bandwidth_gbps=1000,4000"});
  for (const auto& point : doc.at("points").as_array())
    CHECK(sum(point.at("bound_share")) == Approx(1.0).epsilon(1e-8));
}

SCENARIO("compare: each GPU's step time is the one predict reports, and its bound leads the split") {
  const auto cmp = run_json({"compare", "--gpus", "rtx-4090,h100-sxm", "--model", "llama-3-8b", "--mode",
                             "decode", "--batch", "16"});
  for (const auto& g : cmp.at("gpus").as_array()) {
    const auto p = run_json({"predict", "--gpu", g.at("gpu").as_string(), "--model", "llama-3-8b", "--mode",
                             "decode", "--batch", "16"});
    CHECK(g.at("time_us").as_number() == Approx(p.at("total_us").as_number()).epsilon(1e-8));
    std::string top;
    double best = -1;
    for (const auto& [k, v] : p.at("time_by_bound_us").as_object())
      if (v.as_number() > best) best = v.as_number(), top = k;
    CHECK(g.at("bound").as_string() == top);
  }
}

SCENARIO("cost: the owned total is the purchase plus the electricity over the horizon") {
  const auto doc = run_json({"cost", "--gpu", "rtx-4090", "--model", "llama-3-8b", "--mode", "decode",
                             "--batch", "8", "--utilization", "0.5"});
  const auto& in = doc.at("inputs");
  const double years = in.at("years").as_number();
  CHECK(doc.at("owned_total_usd").as_number() ==
        Approx(in.at("purchase_usd").as_number() + doc.at("electricity_usd_per_year").as_number() * years));
  CHECK(doc.at("owned_usd_per_year").as_number() * years == Approx(doc.at("owned_total_usd").as_number()));
  CHECK(doc.at("cloud_usd_per_year").as_number() * years == Approx(doc.at("cloud_total_usd").as_number()));
}
