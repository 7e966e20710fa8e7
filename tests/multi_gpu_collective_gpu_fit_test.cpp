// The two-stage collective fit: the GPU curve (gpu latency, plateau, ramp per collective) from
// CUDA-graph times, then the host floor from eager batched times with the curve fixed.
#include <catch2/catch.hpp>
#include <cmath>

#include "calibration/collective_gpu_fit.h"
#include "models/collective_model.h"
#include "support/system_builder.h"

using namespace gpucast;

namespace {
calib::CollectivePoint point(const std::string& c, double bytes, double us, bool fit) {
  calib::CollectivePoint p;
  p.collective = c;
  p.ranks = 2;
  p.bytes = bytes;
  p.time_us = us;
  p.fit = fit;
  return p;
}
}  // namespace

SCENARIO("the two-stage fit recovers a known GPU curve and host floor") {
  auto truth = test::system_builder(2);
  truth.nccl.ramp_exponent = 0.5;
  truth.nccl.gpu_latency_us_for["all_reduce"] = 7;
  truth.nccl.bus_efficiency_for["all_reduce"] = 0.75;
  truth.nccl.ramp_bytes_for["all_reduce"] = 4e6;
  truth.nccl.base_latency_us_for["all_reduce"] = 30;
  std::vector<calib::CollectivePoint> graph, batched;
  int i = 0;
  for (double s = 65536; s <= 1.1e9; s *= 2, ++i) {
    const auto gp = point("all_reduce", s, 0, i % 2 == 0);
    graph.push_back(point("all_reduce", s, calib::predict_point_gpu(truth, gp), i % 2 == 0));
    batched.push_back(point("all_reduce", s, calib::predict_point(truth, gp), i % 2 == 0));
  }
  auto base = test::system_builder(2);
  const auto fit = calib::fit_collectives_two_stage(base, graph, batched, 0.5);
  const auto& n = fit.system.nccl;
  CHECK(n.gpu_latency_of("all_reduce") == Approx(7).margin(0.3));
  CHECK(n.bus_efficiency_of("all_reduce") == Approx(0.75).margin(0.003));
  CHECK(std::log10(n.ramp_bytes_of("all_reduce")) == Approx(std::log10(4e6)).margin(0.02));
  CHECK(n.base_latency_of("all_reduce") == Approx(30).margin(0.01));
  AND_THEN("the held-out points come back within a percent") {
    for (const auto& p : graph)
      if (!p.fit) CHECK(calib::predict_point_gpu(fit.system, p) == Approx(p.time_us).epsilon(0.01));
  }
}

SCENARIO("the two-stage fit needs CUDA-graph points and a positive ramp exponent") {
  const auto base = test::system_builder(2);
  CHECK_THROWS(calib::fit_collectives_two_stage(base, {}, {}, 0.5));
  CHECK_THROWS(calib::fit_collectives_two_stage(base, {point("all_reduce", 1e6, 10, true)}, {}, 0));
}
