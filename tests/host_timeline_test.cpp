// The host timeline: the host issues kernels in order paying each one's host work; a kernel
// cannot start before its launch; a synchronization stalls the host until the GPU catches up.
#include <catch2/catch.hpp>

#include "sim/simulator.h"
#include "support/gpu_builder.h"

using namespace gpucast;
using test::gpu_builder;

namespace {
// A host whose only cost is 10 us per launch and 5 us per aten op, so times add up by hand.
hw::HostSpec tidy_host() {
  hw::HostSpec h;
  h.id = "tidy";
  h.launch_us = 10;
  h.op_dispatch_us = 5;
  h.sync_us = 2;
  h.graph_replay_us = 7;
  h.graph_per_kernel_us = 0.5;
  return h;
}

wl::Kernel tiny(const std::string& name, wl::Count elements = 1024) {
  wl::Kernel k;
  k.name = name;
  wl::ElementwiseOp e;
  e.elements = elements;
  e.dtype = e.out_dtype = DataType::fp32;
  k.op = e;
  k.host.add(wl::HostCategory::op_dispatch).add(wl::HostCategory::launch);
  return k;
}
}  // namespace

SCENARIO("a host-bound chain leaves the GPU idle by the host time it cannot hide") {
  const auto gpu = gpu_builder{}.build();
  std::vector<wl::Kernel> kernels;
  for (int i = 0; i < 10; ++i) kernels.push_back(tiny("k" + std::to_string(i)));
  const auto w = wl::Workload::build("chain", wl::LaunchMode::eager, kernels);
  sim::Simulator s(gpu, tidy_host());
  const auto p = s.predict(w);
  const double per_kernel_host = 15;  // 5 us dispatch + 10 us launch
  // The first kernel also pays the first touch after the flush; the others take the same time.
  const double first = p.kernels[0].scheduled.end_us - p.kernels[0].scheduled.start_us;
  const double gpu_time = p.kernels[1].scheduled.end_us - p.kernels[1].scheduled.start_us;
  REQUIRE(gpu_time < per_kernel_host);  // each kernel is done before the host launches the next
  THEN("every kernel starts when the host has launched it") {
    for (size_t i = 0; i < p.kernels.size(); ++i) {
      CHECK(p.kernels[i].scheduled.issue_us == Approx(per_kernel_host * double(i + 1)));
      CHECK(p.kernels[i].scheduled.start_us == Approx(per_kernel_host * double(i + 1)));
      CHECK(p.kernels[i].host_begin_us == Approx(per_kernel_host * double(i)));
    }
  }
  THEN("the GPU idles for the host time less its own work") {
    CHECK(p.host_busy_us == Approx(10 * per_kernel_host));
    CHECK(p.total_us == Approx(10 * per_kernel_host + gpu_time));
    CHECK(p.gpu_busy_us == Approx(first + 9 * gpu_time));
    CHECK(p.gpu_idle_us() == Approx(10 * per_kernel_host - first - 8 * gpu_time));
    CHECK(p.host_bound());
  }
  THEN("host time is reported per category") {
    CHECK(p.host_by_category[size_t(wl::HostCategory::launch)] == Approx(100));
    CHECK(p.host_by_category[size_t(wl::HostCategory::op_dispatch)] == Approx(50));
  }
}

SCENARIO("a synchronization stalls the host until the GPU has finished") {
  const auto gpu = gpu_builder{}.build();
  auto big = tiny("big", wl::Count(1) << 27);  // 1 GiB in and out at 1000 GB/s: ~1 ms on the GPU
  big.sync = true;
  big.host.add(wl::HostCategory::sync);
  const auto w = wl::Workload::build("sync", wl::LaunchMode::eager, {big, tiny("after")});
  sim::Simulator s(gpu, tidy_host());
  const auto p = s.predict(w);
  const auto& b = p.kernels[0];
  const auto& a = p.kernels[1];
  THEN("the host issues the next kernel only after the synced one ends") {
    CHECK(b.scheduled.issue_us == Approx(17));  // dispatch 5 + launch 10 + sync call 2
    CHECK(a.host_begin_us == Approx(b.scheduled.end_us));
    CHECK(p.host_stall_us == Approx(b.scheduled.end_us - b.scheduled.issue_us));
    CHECK(p.syncs == 1);
  }
  THEN("the GPU idles while the host issues the kernel after the sync") {
    CHECK(a.scheduled.start_us == Approx(b.scheduled.end_us + 15));
    CHECK(!p.host_bound());
  }
}

SCENARIO("a CUDA graph replay issues every kernel after one replay call") {
  const auto gpu = gpu_builder{}.build();
  std::vector<wl::Kernel> kernels;
  for (int i = 0; i < 4; ++i) kernels.push_back(tiny("k" + std::to_string(i)));
  const auto w = wl::Workload::build("graph", wl::LaunchMode::graph, kernels);
  sim::Simulator s(gpu, tidy_host());
  const auto p = s.predict(w);
  CHECK(p.host_busy_us == Approx(7 + 4 * 0.5));
  for (const auto& k : p.kernels) CHECK(k.scheduled.issue_us == Approx(9));
}

SCENARIO("a kernel without host annotations pays one aten op and its launch") {
  const auto gpu = gpu_builder{}.build();
  auto k = tiny("plain");
  k.host = wl::HostWork{};
  const auto w = wl::Workload::build("plain", wl::LaunchMode::eager, {k});
  sim::Simulator s(gpu, tidy_host());
  CHECK(s.predict(w).host_busy_us == Approx(15));
  AND_WHEN("the workload sets a launch cost (--host-launch-us)") {
    CHECK(s.predict(w.with_host_launch_us(3)).host_busy_us == Approx(8));
  }
}

SCENARIO("framework.model_factor scales the framework categories, not syncs") {
  const auto gpu = gpu_builder{}.build();
  auto host = tidy_host();
  host.model_factor = 2;
  wl::HostWork work;
  work.add(wl::HostCategory::launch).add(wl::HostCategory::sync);
  const auto split = sim::host_cost(host, work);
  CHECK(split[size_t(wl::HostCategory::launch)] == Approx(20));
  CHECK(split[size_t(wl::HostCategory::sync)] == Approx(2));
}
