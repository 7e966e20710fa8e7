// Prices older than a year are flagged; user quotes from a price file replace the catalog's.
#include <catch2/catch.hpp>

#include "hardware/catalog.h"
#include "hardware/price_file.h"
#include "models/cost/price_age.h"
#include "models/cost/pricing.h"
#include "support/cli_runner.h"
#include "support/gpu_builder.h"
#include "support/temp_dir.h"

using namespace gpucast;
namespace cost = models::cost;

SCENARIO("a price is stale after twelve months, not before") {
  const cost::CalendarDate today{2026, 11, 22};
  auto gpu = test::gpu_builder{}.build();
  gpu.price.kind = "launch";
  gpu.price.date = "2025-11";  // 12.7 months before today
  CHECK(cost::stale_price_warnings(gpu, true, std::nullopt, std::nullopt, today).size() == 1);
  gpu.price.date = "2025-12";  // 11.7 months
  CHECK(cost::stale_price_warnings(gpu, true, std::nullopt, std::nullopt, today).empty());
  gpu.price.date = "";
  CHECK_THAT(cost::stale_price_warnings(gpu, true, std::nullopt, std::nullopt, today).front(),
             Catch::Contains("no date"));
  CHECK(cost::stale_price_warnings(gpu, false, std::string("AWS p3"), std::string("2018-01"), today).size() ==
        1);
}

SCENARIO("the V100's 2018 launch price is flagged") {
  const auto v100 = hw::Catalog(test::source_dir() / "hardware").load("v100-sxm2-16g");
  const auto w = cost::stale_price_warnings(v100, true, std::nullopt, std::nullopt, {2026, 11, 22});
  REQUIRE(w.size() == 1);
  CHECK_THAT(w.front(), Catch::Contains("2018") && Catch::Contains("years old"));
}

SCENARIO("a price file replaces the catalog's prices and names file:line:key on errors") {
  test::TempDir dir;
  const auto catalog = hw::Catalog(test::source_dir() / "hardware");
  const auto good = dir.write("quotes.toml", R"([h200]
price = { usd = 30000.0, kind = "street", date = "2026-11" }
[[h200.cloud]]
provider = "Acme"
instance = "1x H200"
gpus = 1
usd_per_hour = 2.5
date = "2026-11"
)");
  const auto prices = hw::read_price_file(good, catalog);
  auto gpu = catalog.load("h200-sxm");
  REQUIRE(hw::apply_price_file(prices, gpu));
  CHECK(gpu.price.usd == 30000);
  REQUIRE(gpu.cloud.size() == 1);
  CHECK(gpu.cloud.front().usd_per_gpu_hour() == 2.5);

  const auto undated = dir.write("undated.toml", "[h200-sxm]\nprice = { usd = 30000.0 }\n");
  CHECK_THROWS_WITH(hw::read_price_file(undated, catalog),
                    Catch::Contains("undated.toml:2") && Catch::Contains("price.date"));
  const auto unknown = dir.write("unknown.toml", "[h200-sxm]\nprise = { usd = 1.0 }\n");
  CHECK_THROWS_WITH(hw::read_price_file(unknown, catalog),
                    Catch::Contains("unknown.toml:2") && Catch::Contains("did you mean 'price'"));
  const auto bad_gpu = dir.write("gpu.toml", "[h100]\nprice = { usd = 1.0, date = \"2026-11\" }\n");
  CHECK_THROWS_WITH(hw::read_price_file(bad_gpu, catalog),
                    Catch::Contains("gpu.toml:1") && Catch::Contains("several GPUs"));
}

SCENARIO("compare and cost warn about the stale prices they rank by") {
  const auto r = test::run_gpucast({"compare", "--gpus", "v100-sxm2-16g,h200", "--model", "llama-2-7b",
                                    "--mode", "decode", "--dtype", "fp16", "--format", "json"});
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.out,
             Catch::Contains("\"warnings\"") &&
                 Catch::Contains("v100-sxm2-16g: the purchase price (launch, $9,000) is from 2018-01"));
  const auto text = test::run_gpucast({"cost", "--gpu", "v100-sxm2-16g"});
  REQUIRE(text.exit_code == 0);
  CHECK_THAT(text.out, Catch::Contains("Warnings") && Catch::Contains("2018-01"));
  GIVEN("the user's own dated quote") {
    test::TempDir dir;
    const auto quotes = dir.write("q.toml", "[v100]\n");
    const auto ambiguous =
        test::run_gpucast({"cost", "--gpu", "v100-sxm2-16g", "--price-file", quotes.string()});
    THEN("a name meaning several GPUs is an error naming the file and line") {
      CHECK(ambiguous.exit_code != 0);
      CHECK_THAT(ambiguous.err, Catch::Contains("q.toml:1") && Catch::Contains("several GPUs"));
    }
  }
}

SCENARIO("datacenter modules are bought into a server, cards into a desktop") {
  const hw::Catalog catalog(test::source_dir() / "hardware");
  for (const char* id : {"b200", "gb200", "gh200", "mi300x", "mi355x", "h100-sxm", "h20"}) {
    INFO(id);
    CHECK(cost::default_machine(catalog.load(id)).kind == "server share");
  }
  for (const char* id : {"h100-pcie", "a30", "rtx-pro-6000", "l40s"}) {
    INFO(id);
    CHECK(cost::default_machine(catalog.load(id)).kind == "desktop");
  }
}
