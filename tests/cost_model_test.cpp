// Owning against renting, the power-limit slowdown and comparison ranking.
#include <catch2/catch.hpp>

#include "common/errors.h"
#include "models/cost/ownership.h"
#include "models/cost/power_limit.h"
#include "models/cost/ranking.h"
#include "sim/simulator.h"
#include "support/gpu_builder.h"

using namespace gpucast;
using namespace gpucast::models::cost;

namespace {
// Tim Dettmers' worked example (shared/seeds/002): a $2,200 RTX 3090 desktop drawing 350 W + 100 W,
// used 15% of the time at $0.12/kWh, against a $2.14/h cloud V100.
CostInputs dettmers_example() {
  CostInputs in;
  in.owned.purchase_usd = 2200;
  in.owned.busy_watts = 350 + 100;
  in.owned.usd_per_kwh = 0.12;
  in.cloud_usd_per_hour = 2.14;
  in.utilization = 0.15;
  in.years = 3;
  return in;
}
}  // namespace

SCENARIO("the RTX 3090 desktop against a cloud V100 breaks even after about 300 days") {
  const auto c = compare_costs(dettmers_example());
  // 591 kWh a year, "an extra $71" in the article.
  CHECK(c.electricity_usd_per_year == Approx(0.45 * 8760 * 0.15 * 0.12));
  CHECK(c.electricity_usd_per_year == Approx(71).margin(0.5));
  CHECK(c.cloud_usd_per_year == Approx(2.14 * 8760 * 0.15));
  REQUIRE(c.break_even_days);
  CHECK(*c.break_even_days == Approx(293).margin(1));
  CHECK(*c.break_even_days > 270);
  CHECK(*c.break_even_days < 330);
  CHECK(c.owning_cheaper_over_horizon());
}

SCENARIO("a horizon shorter than the break-even makes renting the cheaper choice") {
  auto in = dettmers_example();
  in.years = 0.5;  // 183 days < 293 days
  const auto c = compare_costs(in);
  REQUIRE(c.break_even_days);
  CHECK(*c.break_even_days > in.years * 365);
  CHECK_FALSE(c.owning_cheaper_over_horizon());
  CHECK(c.owned_total_usd == Approx(2200 + c.electricity_usd_per_year * 0.5));
  CHECK(c.cloud_total_usd == Approx(c.cloud_usd_per_year * 0.5));
}

SCENARIO("a GPU that never works never pays off") {
  auto in = dettmers_example();
  in.utilization = 0;
  const auto c = compare_costs(in);
  CHECK_FALSE(c.break_even_days);
  CHECK(c.cloud_usd_per_year == 0);
  CHECK(c.electricity_usd_per_year == 0);
  CHECK(c.owned_usd_per_year == Approx(2200.0 / 3));
  CHECK_FALSE(c.owning_cheaper_over_horizon());
}

SCENARIO("a GPU busy around the clock pays off in weeks") {
  auto in = dettmers_example();
  in.utilization = 1;
  const auto c = compare_costs(in);
  CHECK(c.busy_hours_per_year == Approx(8760));
  REQUIRE(c.break_even_days);
  // $2,200 / ($2.14 - $0.054) per hour / 24 h
  CHECK(*c.break_even_days == Approx(2200 / ((2.14 - 0.45 * 0.12) * 24)).epsilon(1e-9));
  CHECK(*c.break_even_days < 50);
}

SCENARIO("when electricity costs more than the rent, owning never breaks even") {
  auto in = dettmers_example();
  in.cloud_usd_per_hour = 0.04;  // below the 0.054 $/h of electricity
  CHECK_FALSE(compare_costs(in).break_even_days);
}

SCENARIO("out-of-range cost inputs are rejected") {
  auto in = dettmers_example();
  in.utilization = 1.5;
  CHECK_THROWS_AS(compare_costs(in), UsageError);
  in = dettmers_example();
  in.years = 0;
  CHECK_THROWS_AS(compare_costs(in), UsageError);
  in = dettmers_example();
  in.owned.usd_per_kwh = -1;
  CHECK_THROWS_AS(compare_costs(in), UsageError);
}

SCENARIO("a power limit lowers the clock by the cube root of the dynamic power") {
  CHECK(clock_fraction_under_cap(350, 400) == 1.0);
  CHECK(clock_fraction_under_cap(350, 350) == 1.0);
  const double f = clock_fraction_under_cap(250, 200);  // Dettmers' RTX 2080 Ti, 50 W less
  CHECK(f == Approx(std::cbrt((0.8 - kStaticPowerShare) / (1 - kStaticPowerShare))));
  CHECK(f > 0.85);
  CHECK(f < 0.95);
  CHECK_THROWS_AS(clock_fraction_under_cap(350, 50), UsageError);
}

SCENARIO("a power limit slows compute-bound work and barely touches memory-bound work") {
  const auto gpu = test::gpu_builder{}.build();
  const auto capped = at_clock_fraction(gpu, 0.8);
  CHECK(capped.memory.bandwidth_gbps == gpu.memory.bandwidth_gbps);
  CHECK(capped.sm.sustained_clock_mhz == Approx(0.8 * gpu.sm.sustained_clock_mhz));

  wl::GemmOp big{8192, 8192, 8192, 1, DataType::bf16, DataType::bf16};
  wl::ElementwiseOp stream;
  stream.elements = 1 << 28;
  sim::OpPredictor full(gpu), slow(capped);
  const double gemm_ratio = slow.predict(big).duration_us / full.predict(big).duration_us;
  const double stream_ratio = slow.predict(stream).duration_us / full.predict(stream).duration_us;
  CHECK(gemm_ratio == Approx(1 / 0.8).epsilon(0.03));
  CHECK(stream_ratio < 1.03);
}

namespace {
ComparisonRow row(const std::string& gpu, double time_us, std::optional<double> price, bool fits = true) {
  ComparisonRow r;
  r.gpu = gpu;
  r.time_us = time_us;
  r.throughput = 1e6 / time_us;
  r.fits = fits;
  r.price_usd = price;
  if (price) r.throughput_per_kusd = r.throughput / (*price / 1000);
  return r;
}
}  // namespace

SCENARIO("compare ranks by what the user asks, with GPUs that do not fit last") {
  std::vector<ComparisonRow> rows{row("fast-dear", 10, 30000), row("slow-cheap", 40, 1000),
                                  row("fastest-too-small", 5, 2000, false), row("no-price", 20, std::nullopt)};
  rows[0].rented_usd_per_result = 2.0;
  rows[1].owned_usd_per_result = 0.5;
  rows[1].rented_usd_per_result = 0.7;

  rank_rows(rows, RankBy::time);
  CHECK(rows[0].gpu == "fast-dear");
  CHECK(rows[1].gpu == "no-price");
  CHECK(rows[2].gpu == "slow-cheap");
  CHECK(rows[3].gpu == "fastest-too-small");
  CHECK(rows[3].rank == 4);

  rank_rows(rows, RankBy::perf_per_usd);
  CHECK(rows[0].gpu == "slow-cheap");  // 25k/s per $1k against 3.3k/s per $1k
  CHECK(rows[1].gpu == "fast-dear");
  CHECK(rows[2].gpu == "no-price");     // unknown price ranks after known ones
  CHECK(rows[3].gpu == "fastest-too-small");

  rank_rows(rows, RankBy::usd_per_result);
  CHECK(rows[0].gpu == "slow-cheap");   // the cheaper of owning (0.5) and renting
  CHECK(rows[0].best_usd_per_result() == Approx(0.5));
  CHECK(rows[1].gpu == "fast-dear");

  CHECK_THROWS_AS(parse_rank_by("fastest"), UsageError);
}
