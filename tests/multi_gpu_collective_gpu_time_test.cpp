// A collective's GPU time and its host floor: time = max(host issue floor, GPU-side fixed cost +
// steps + transfer); inside a CUDA graph only the GPU time counts, where the system measured it, and
// an eager call charges the floor to the host and the GPU time to the GPU.
#include <catch2/catch.hpp>

#include "models/collective_model.h"
#include "sim/simulator.h"
#include "support/system_builder.h"

using namespace gpucast;
using models::estimate_collective;
using wl::CollectiveKind;

SCENARIO("the GPU-side fixed cost adds to the steps and the transfer; the host floor caps from below") {
  auto sys = test::system_builder(2);  // base 10 us, 1 us/step, 100 GB/s x 0.8, no ramp
  sys.nccl.gpu_latency_us_for["all_reduce"] = 4;
  // all-reduce on 2 GPUs: 2 steps; gpu = 4 + 2 + S / 80e3 us. At S = 320 kB: 4 + 2 + 4 = 10 = the floor.
  const auto at = estimate_collective(test::collective_op(CollectiveKind::all_reduce, 320e3, 2), sys);
  CHECK(at.gpu_us == Approx(10.0));
  CHECK(at.time_us == Approx(10.0));
  const auto above = estimate_collective(test::collective_op(CollectiveKind::all_reduce, 400e3, 2), sys);
  CHECK(above.gpu_us == Approx(11.0));
  CHECK(above.time_us == Approx(11.0));  // past the floor: the GPU time
  const auto below = estimate_collective(test::collective_op(CollectiveKind::all_reduce, 80e3, 2), sys);
  CHECK(below.gpu_us == Approx(7.0));
  CHECK(below.time_us == Approx(10.0));  // on the floor
  AND_THEN("another collective without its own value has no GPU-side fixed cost") {
    const auto ag = estimate_collective(test::collective_op(CollectiveKind::all_gather, 160e3, 2), sys);
    CHECK(ag.gpu_us == Approx(1 + 80e3 / 80e3));
  }
}

SCENARIO("inside a CUDA graph a collective costs its GPU time and not the eager host floor") {
  auto sys = test::system_builder(2);
  sys.nccl.base_latency_us = 40;  // the host's issue time of eager back-to-back calls
  sys.nccl.gpu_latency_us = 5;
  wl::Kernel k;
  k.name = "ar";
  k.op = test::collective_op(CollectiveKind::all_reduce, 8e3, 2);  // gpu = 5 + 2 + 0.1 = 7.1 us
  const double gpu_us = 5 + 2 + 8e3 / 80e3;
  sim::Simulator s(sys);
  const auto eager = s.predict(wl::Workload::build("eager", wl::LaunchMode::eager, {k}));
  const auto graph = s.predict(wl::Workload::build("graph", wl::LaunchMode::graph, {k}));
  const auto span = [](const sim::Prediction& p) {
    return p.kernels[0].scheduled.end_us - p.kernels[0].scheduled.start_us;
  };
  const auto& costs = s.device().launch();
  // eager: the floor is the host's (it issues the call in 40 us); the GPU runs its own time (less the
  // queued launch the model counts apart) after a cold launch
  CHECK(eager.kernels[0].scheduled.issue_us - eager.kernels[0].host_begin_us == Approx(40));
  CHECK(span(eager) == Approx(gpu_us - costs.queued_kernel_us + costs.cold_kernel_us + costs.first_touch_us));
  // graph: the GPU time (its own graph gap counted once, by the timeline)
  CHECK(span(graph) == Approx(gpu_us + costs.first_touch_us));
  CHECK(span(graph) < 10);
}

SCENARIO("a system without a measured GPU-side fixed cost keeps the eager floor inside a CUDA graph") {
  auto sys = test::system_builder(2);  // gpu_latency_us not set: the floor cannot be split
  sys.nccl.base_latency_us = 40;
  wl::Kernel k;
  k.name = "ar";
  k.op = test::collective_op(CollectiveKind::all_reduce, 8e3, 2);
  const auto e = estimate_collective(std::get<wl::CollectiveOp>(k.op), sys);
  CHECK(e.graph_us == Approx(e.time_us));
  CHECK(e.time_us == Approx(40));
  sim::Simulator s(sys);
  const auto graph = s.predict(wl::Workload::build("graph", wl::LaunchMode::graph, {k}));
  const auto& costs = s.device().launch();
  CHECK(graph.kernels[0].scheduled.end_us - graph.kernels[0].scheduled.start_us ==
        Approx(40 - costs.queued_kernel_us + costs.graph_kernel_us + costs.first_touch_us));
}
