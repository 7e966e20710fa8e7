// --set overrides for what-if studies.
#include <catch2/catch.hpp>

#include "hardware/catalog.h"
#include "support/temp_dir.h"

using namespace gpucast;

SCENARIO("--set overrides any scalar key") {
  const hw::Catalog catalog(test::source_dir() / "hardware");
  const auto gpu = catalog.load("h100-sxm", hw::parse_overrides({"memory.bandwidth_gbps=6700", "sm.count = 100",
                                                                 "efficiency.tensor.bf16=0.5"}));
  CHECK(gpu.memory.bandwidth_gbps == Approx(6700));
  CHECK(gpu.sm.count == 100);
  CHECK(gpu.efficiency.tensor.at(DataType::bf16) == Approx(0.5));
  CHECK(gpu.values.at("sm.count").where.file == "--set sm.count=100");
}

SCENARIO("--set can add a data type the GPU lacks") {
  const hw::Catalog catalog(test::source_dir() / "hardware");
  const auto gpu = catalog.load("a100-sxm-80g", hw::parse_overrides({"compute.tensor_tflops.fp8=624"}));
  CHECK(gpu.tensor_tflops(DataType::fp8) == Approx(624));
}

SCENARIO("bad --set values are errors that name the flag") {
  CHECK_THROWS_WITH(hw::parse_override("memory.bandwidth=1"),
                    Catch::Contains("unknown key") && Catch::Contains("did you mean 'memory.bandwidth_gbps'"));
  CHECK_THROWS_WITH(hw::parse_override("sm.count=12.5"), Catch::Contains("expected an integer"));
  CHECK_THROWS_WITH(hw::parse_override("memory.bandwidth_gbps=fast"), Catch::Contains("expected a number"));
  CHECK_THROWS_WITH(hw::parse_override("memory.bandwidth_gbps=-3"), Catch::Contains("must be > 0"));
  CHECK_THROWS_WITH(hw::parse_override("sm.count"), Catch::Contains("expected key.path=value"));
  CHECK_THROWS_WITH(hw::parse_override("cloud.usd_per_hour=3"), Catch::Contains("cannot be set with --set"));
  CHECK_THROWS_WITH(hw::parse_override("sm.count=0"), Catch::Contains("--set sm.count=0"));
}
