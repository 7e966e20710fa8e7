// Eager collectives on the host timeline: the host pays the call's issue floor (cold amid other work,
// hot right after another collective), the GPU its own time; and rank skew: a collective starts on
// the GPU only once the slowest rank's host has issued it (sim/rank_skew.h).
#include <catch2/catch.hpp>
#include <cmath>

#include "models/collective_model.h"
#include "sim/rank_skew.h"
#include "sim/simulator.h"
#include "support/system_builder.h"

using namespace gpucast;
using wl::CollectiveKind;

namespace {
wl::Kernel all_reduce(const std::string& name, double bytes = 8e3) {
  wl::CollectiveOp o;
  o.kind = CollectiveKind::all_reduce;
  o.bytes = bytes;
  o.ranks = 2;
  wl::Kernel k;
  k.name = name;
  k.op = o;
  return k;
}
wl::Kernel add(const std::string& name) {
  wl::ElementwiseOp e;
  e.elements = 4096;
  wl::Kernel k;
  k.name = name;
  k.op = e;
  return k;
}
// A host that charges 10 us per kernel (launch only), so that issue times are round.
hw::HostSpec flat_host() {
  hw::HostSpec h;
  h.id = "flat";
  h.launch_us = 10;
  h.model_factor = 1;
  return h;
}
// 2 GPUs, host floor 40 us back to back, 90 us amid other work; GPU-side fixed cost 5 us.
hw::SystemSpec split_system(double spread = 0) {
  auto sys = test::system_builder(2);
  sys.nccl.base_latency_us = 40;
  sys.nccl.gpu_latency_us = 5;
  sys.nccl.program_host_us = 90;
  sys.nccl.rank_host_spread = spread;
  return sys;
}
}  // namespace

SCENARIO(
    "the expected max of n standard normals: 0 for one rank, 1/sqrt(pi) for two, 3/(2 sqrt(pi)) for three") {
  CHECK(models::expected_max_standard_normal(1) == 0);
  CHECK(models::expected_max_standard_normal(2) == Approx(1 / std::sqrt(M_PI)).epsilon(1e-6));
  CHECK(models::expected_max_standard_normal(3) == Approx(1.5 / std::sqrt(M_PI)).epsilon(1e-6));
  CHECK(models::expected_max_standard_normal(8) == Approx(1.4236).epsilon(1e-3));
}

SCENARIO(
    "an eager collective amid other work costs the host its program time; right after another, the hot "
    "floor") {
  sim::Simulator s(split_system(), flat_host());
  const auto p = s.predict(
      wl::Workload::build("w", wl::LaunchMode::eager, {add("a"), all_reduce("ar1"), all_reduce("ar2")}));
  const auto host_us = [&](size_t i) { return p.kernels[i].scheduled.issue_us - p.kernels[i].host_begin_us; };
  CHECK(host_us(0) == Approx(10));
  CHECK(host_us(1) == Approx(90));  // after an elementwise op: cold
  CHECK(host_us(2) == Approx(40));  // back to back: hot (the nccl-tests floor)
  AND_THEN("the GPU runs the call's own time, not the floor") {
    const double gpu_us = 5 + 2 + 8e3 / 80e3;  // fixed + 2 steps + transfer at 100 GB/s x 0.8
    const auto& k = p.kernels[2].scheduled;
    CHECK(k.end_us - k.start_us < gpu_us + 5);
  }
}

SCENARIO("without a measured program time the host pays the back-to-back floor everywhere") {
  auto sys = split_system();
  sys.nccl.program_host_us = -1;
  sim::Simulator s(sys, flat_host());
  const auto p = s.predict(wl::Workload::build("w", wl::LaunchMode::eager, {add("a"), all_reduce("ar")}));
  CHECK(p.kernels[1].scheduled.issue_us - p.kernels[1].host_begin_us == Approx(40));
}

SCENARIO("a collective waits for the slowest rank: since + (issue - since) x (1 + skew)") {
  sim::OpTiming coll, other;
  coll.peer_host_skew = 0.1;
  const std::vector<const sim::OpTiming*> ops{&other, &coll, &coll};
  const auto ready = sim::peer_ready_times(ops, {50, 100, 300}, {0, 20, 200});
  CHECK(ready[0] == Approx(50));               // not a collective: its own host
  CHECK(ready[1] == Approx(20 + 80 * 1.1));    // 108: the slowest rank lags 10% of the 80 us since the sync
  CHECK(ready[2] == Approx(200 + 100 * 1.1));  // after a later sync, measured from there
}

SCENARIO("the skew of two ranks is the spread times 1/sqrt(pi) of the host time before the collective") {
  const double spread = 0.2;
  sim::Simulator lockstep(split_system(0), flat_host());
  sim::Simulator skewed(split_system(spread), flat_host());
  const auto w = wl::Workload::build("w", wl::LaunchMode::eager, {add("a"), add("b"), all_reduce("ar")});
  const auto p0 = lockstep.predict(w);
  const auto p1 = skewed.predict(w);
  const double issue = p0.kernels[2].scheduled.issue_us;  // 10 + 10 + 90 = 110 us
  CHECK(issue == Approx(110));
  CHECK(p1.kernels[2].scheduled.start_us >= issue * (1 + spread / std::sqrt(M_PI)) - 1e-9);
  CHECK(p1.kernels[2].scheduled.start_us - p0.kernels[2].scheduled.start_us ==
        Approx(issue * spread / std::sqrt(M_PI)).margin(1.0));
  AND_THEN("a CUDA graph replays on every rank at once: no skew") {
    const auto g0 =
        lockstep.predict(wl::Workload::build("g", wl::LaunchMode::graph, {add("a"), all_reduce("ar")}));
    const auto g1 =
        skewed.predict(wl::Workload::build("g", wl::LaunchMode::graph, {add("a"), all_reduce("ar")}));
    CHECK(g1.total_us == Approx(g0.total_us));
  }
}
