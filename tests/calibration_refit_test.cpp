// The committed calibrated profiles are what calibration/refit.sh fits from the committed raw
// measurements with the current models: a model change that moves a fitted value (a GEMM
// efficiency is fitted through the GEMM model) must come with the refit profiles.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "support/temp_dir.h"

namespace {

std::string read_text(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

SCENARIO("the committed calibrated profiles are the refit of their committed raw data") {
  const gpucast::test::TempDir tmp;
  const auto src = gpucast::test::source_dir();
  const std::string cmd = "bash '" + (src / "calibration/refit.sh").string() + "' '" GPUCAST_BINARY "' '" +
                          tmp.path().string() + "' > '" + (tmp.path() / "refit.log").string() + "' 2>&1";
  REQUIRE(std::system(cmd.c_str()) == 0);
  for (const char* gpu : {"h100-sxm", "h200-sxm"}) {
    INFO(gpu << ": run calibration/refit.sh and commit hardware/calibrated/" << gpu << ".toml");
    CHECK(read_text(tmp.path() / (std::string(gpu) + ".toml")) ==
          read_text(src / "hardware/calibrated" / (std::string(gpu) + ".toml")));
  }
}
