// A model never refuses what the framework runs: every op of the stored validation suites predicts
// on every catalog GPU. The refusals allowed are those PyTorch makes too: a data type the GPU has no
// tensor cores for (an fp8 matmul on an A100), an attention backend named explicitly that the
// architecture does not have (flash2 on a T4).
#include <catch2/catch.hpp>

#include "calibration/validation_report.h"
#include "common/errors.h"
#include "hardware/catalog.h"
#include "sim/op_predictor.h"
#include "support/temp_dir.h"

using namespace gpucast;

SCENARIO("every validation op predicts on every catalog GPU") {
  const hw::Catalog catalog(test::source_dir() / "hardware");
  const auto ops = calib::validation_ops((test::source_dir() / "validation" / "h100-sxm" / "kernels.json").string());
  for (const auto& id : catalog.ids()) {
    sim::OpPredictor predictor(catalog.load(id));
    for (const auto& [case_id, op] : ops) {
      INFO(id << " " << case_id << " " << wl::op_name(op) << " " << wl::op_shape(op));
      try {
        const auto& t = predictor.predict(op);
        CHECK(std::isfinite(t.duration_us));
        CHECK(t.duration_us > 0);
      } catch (const UnsupportedError& e) {
        // Refusals PyTorch makes too: a data type without tensor cores, or an attention backend named
        // explicitly that the architecture cannot run (sdpa_kernel raises "No available kernel").
        INFO(e.what());
        const std::string why = e.what();
        CHECK((why.find("tensor-core rate") != std::string::npos || why.find("would run backend") != std::string::npos));
      }
    }
  }
}
