// Parsing --vary specs and walking the sweep grid.
#include <catch2/catch.hpp>

#include "common/errors.h"
#include "cli/sweep_grid.h"

using namespace gpucast;
using namespace gpucast::cli;

namespace {
std::string error_of(const std::string& spec) {
  try {
    (void)parse_vary(spec);
  } catch (const UsageError& e) {
    return e.what();
  }
  return "";
}
}  // namespace

SCENARIO("a range includes both ends") {
  const auto a = parse_vary("memory.bandwidth_gbps=1000:3000:500");
  CHECK(a.kind == AxisKind::hardware);
  CHECK(a.values == std::vector<std::string>{"1000", "1500", "2000", "2500", "3000"});
}

SCENARIO("a step that does not land on STOP stops before it") {
  CHECK(parse_vary("cache.l2_mb=10:25:10").values == std::vector<std::string>{"10", "20"});
}

SCENARIO("fractional steps do not accumulate rounding") {
  const auto a = parse_vary("efficiency.dram_bandwidth=0.5:1.0:0.1");
  CHECK(a.values == std::vector<std::string>{"0.5", "0.6", "0.7", "0.8", "0.9", "1"});
}

SCENARIO("a geometric range multiplies") {
  const auto a = parse_vary("batch=1:64:*2");
  CHECK(a.kind == AxisKind::workload);
  CHECK(a.values == std::vector<std::string>{"1", "2", "4", "8", "16", "32", "64"});
}

SCENARIO("lists keep their order and workload values are checked") {
  CHECK(parse_vary("dtype=fp8,bf16").values == std::vector<std::string>{"fp8", "bf16"});
  CHECK(parse_vary("sm.count=66, 132").values == std::vector<std::string>{"66", "132"});
}

SCENARIO("the grid is every combination, last axis fastest") {
  const auto axes = parse_vary_all({"sm.count=66,132", "batch=1,2,4"});
  REQUIRE(grid_size(axes) == 6);
  CHECK(grid_point(axes, 0) == std::vector<std::string>{"66", "1"});
  CHECK(grid_point(axes, 2) == std::vector<std::string>{"66", "4"});
  CHECK(grid_point(axes, 3) == std::vector<std::string>{"132", "1"});
  CHECK(grid_point(axes, 5) == std::vector<std::string>{"132", "4"});
}

SCENARIO("bad --vary specs fail with a message that says what is wrong") {
  CHECK_THAT(error_of("memory.bandwidth_gbps"), Catch::Contains("expected KEY=START:STOP:STEP"));
  CHECK_THAT(error_of("memory.bandwith_gbps=1:2:1"), Catch::Contains("unknown key") &&
                                                         Catch::Contains("memory.bandwidth_gbps"));
  CHECK_THAT(error_of("memory.bandwidth_gbps=1000:3000"), Catch::Contains("START:STOP:STEP"));
  CHECK_THAT(error_of("memory.bandwidth_gbps=3000:1000:500"), Catch::Contains("STOP is below START"));
  CHECK_THAT(error_of("memory.bandwidth_gbps=1000:3000:0"), Catch::Contains("STEP must be positive"));
  CHECK_THAT(error_of("memory.bandwidth_gbps=1000:3000:abc"), Catch::Contains("not a number"));
  CHECK_THAT(error_of("batch=1:64:*1"), Catch::Contains("FACTOR must be greater than 1"));
  CHECK_THAT(error_of("batch=0,1"), Catch::Contains("integers in [1, "));
  CHECK_THAT(error_of("batch=1.5,2"), Catch::Contains("integers in [1, "));
  CHECK_THAT(error_of("sm.count=1:10:2.5"), Catch::Contains("whole numbers"));
  CHECK_THAT(error_of("dtype=fp16,fp7"), Catch::Contains("unknown data type 'fp7'"));
  CHECK_THAT(error_of("dtype=fp16:fp32:1"), Catch::Contains("list of values"));
  CHECK_THAT(error_of("memory.type=HBM3,GDDR7"), Catch::Contains("only numeric hardware keys"));
  CHECK_THAT(error_of("memory.bandwidth_gbps=-5,10"), Catch::Contains("must be"));
  CHECK_THAT(error_of("batch=1,2,1"), Catch::Contains("appears twice"));
  CHECK_THAT(error_of("batch="), Catch::Contains("no values"));
}

SCENARIO("the same key twice and oversized grids are refused") {
  CHECK_THROWS_WITH(parse_vary_all({"batch=1,2", "batch=4,8"}), Catch::Contains("given twice"));
  CHECK_THROWS_WITH(parse_vary_all({"memory.bandwidth_gbps=1:2000000:1"}), Catch::Contains("more than"));
  CHECK_THROWS_WITH(parse_vary_all({"memory.bandwidth_gbps=1:2000:1", "cache.l2_mb=1:1000:1"}),
                    Catch::Contains("points; the most is"));
  CHECK_THROWS_WITH(parse_vary_all({"memory.bandwidth_gbps=1:10001:1"}), Catch::Contains("--max-points"));
  CHECK_NOTHROW(parse_vary_all({"memory.bandwidth_gbps=1:10000:1"}));
  CHECK_NOTHROW(parse_vary_all({"memory.bandwidth_gbps=1:10001:1"}, 10001));
  CHECK_THROWS_AS(parse_vary_all({}), UsageError);
}
