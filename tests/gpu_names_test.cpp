// The names people type for a GPU resolve to catalog ids in one place (hw::Catalog::resolve).
#include <catch2/catch.hpp>

#include "hardware/catalog.h"
#include "support/cli_runner.h"
#include "support/temp_dir.h"

using namespace gpucast;

namespace {
hw::Catalog real_catalog() {
  return hw::Catalog(test::source_dir() / "hardware");
}
}  // namespace

SCENARIO("a name that means one GPU resolves to it") {
  const auto catalog = real_catalog();
  CHECK(catalog.resolve("h100-sxm") == "h100-sxm");
  CHECK(catalog.resolve("h200") == "h200-sxm");
  CHECK(catalog.resolve("4090") == "rtx-4090");
  CHECK(catalog.resolve("RTX 4090") == "rtx-4090");
  CHECK(catalog.resolve("mi300") == "mi300x");
  CHECK(catalog.resolve("MI355X") == "mi355x");
  CHECK(catalog.load("4090").id == "rtx-4090");
  CHECK(catalog.resolve("a10g") == "a10g");
  CHECK(catalog.resolve("NVIDIA A10G") == "a10g");
  CHECK(catalog.resolve("a10") == "a10");
  CHECK(catalog.resolve("H100 NVL") == "h100-nvl");
  CHECK(catalog.resolve("h100nvl") == "h100-nvl");
}

SCENARIO("a name that means several GPUs is refused with the list to pick from") {
  const auto catalog = real_catalog();
  const auto h100 = hw::candidate_ids("h100", catalog.ids(), catalog.aliases());
  CHECK(h100 == std::vector<std::string>{"h100-sxm", "h100-pcie", "h100-nvl"});
  CHECK_THROWS_WITH(catalog.resolve("h100"), Catch::Contains("h100-sxm") && Catch::Contains("h100-pcie"));
  CHECK_THROWS_WITH(catalog.resolve("a100"),
                    Catch::Contains("a100-sxm-80g") && Catch::Contains("a100-pcie-40g"));
}

SCENARIO("a misspelled name gets a suggestion, not a wrong GPU") {
  const auto catalog = real_catalog();
  CHECK_THROWS_WITH(catalog.resolve("h10"),
                    Catch::Contains("did you mean 'h100'") || Catch::Contains("did you mean 'h20'"));
  CHECK_THROWS_WITH(catalog.resolve("mi30x"), Catch::Contains("did you mean 'mi300x'"));
}

SCENARIO("every command that takes a GPU accepts the same names") {
  CHECK(test::run_gpucast({"hw", "show", "mi300", "--format", "json"}).exit_code == 0);
  CHECK(test::run_gpucast({"predict", "--gpu", "4090", "--model", "llama-3-8b", "--mode", "decode"}).exit_code == 0);
  CHECK(test::run_gpucast({"cost", "--gpu", "h200"}).exit_code == 0);
  const auto compare = test::run_gpucast({"compare", "--gpus", "h200,mi300,4090", "--model", "llama-3-8b", "--mode",
                                          "decode", "--format", "csv"});
  REQUIRE(compare.exit_code == 0);
  CHECK_THAT(compare.out, Catch::Contains("h200-sxm") && Catch::Contains("mi300x") && Catch::Contains("rtx-4090"));
  const auto ambiguous = test::run_gpucast({"predict", "--gpu", "h100", "--model", "llama-3-8b"});
  CHECK(ambiguous.exit_code != 0);
  CHECK_THAT(ambiguous.err, Catch::Contains("h100-sxm, h100-pcie"));
}
