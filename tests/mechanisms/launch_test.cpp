// How launch works (device/launch_costs.h, sim/timeline.cpp): eager kernels wait for the host to
// issue each one and pay a cold launch; a CUDA graph issues them all at once and pays a small
// per-kernel cost.
#include <catch2/catch.hpp>

#include "sim/simulator.h"
#include "support/gpu_builder.h"
#include "workloads/workload_file.h"

using namespace gpucast;

namespace {
// Host 5 us per eager kernel, cold launch 2 us, queued 1 us, graph 0.5 us per kernel.
hw::GpuSpec launch_gpu() {
  return test::gpu_builder{}
      .host_eager_us(5)
      .launch_us(2)
      .set("launch.queued_kernel_us", "1")
      .set("launch.graph_kernel_us", "0.5")
      .build();
}
std::string tiny_kernels(const char* mode, int n) {
  std::string text = std::string("[workload]\nlaunch = \"") + mode + "\"\n";
  for (int i = 0; i < n; ++i) text += "[[kernel]]\nop = \"elementwise\"\nelements = 1024\ndtype = \"fp32\"\n";
  return text;
}
}  // namespace

SCENARIO("eager: ten tiny kernels take ten host issues plus the last kernel's cold launch") {
  const auto gpu = launch_gpu();
  sim::Simulator s(gpu);
  const auto p = s.predict(wl::read_workload_text(tiny_kernels("eager", 10), "eager.toml"));
  const double exec = p.kernels.back().timing->exec_us;  // (its input is warm in the L2: sim/warm_l2.h)
  REQUIRE(p.kernels.front().timing->exec_us + 2 < 5);  // each kernel ends before the host issues the next
  // The first kernel's first touch is hidden: the next issue comes 5 us later.
  CHECK(p.total_us == Approx(10 * 5.0 + 2 + exec));
  CHECK(p.kernels.back().scheduled.waited_for_host);
}

SCENARIO("graph: one replay issues all ten; each kernel pays the graph cost, not the host's") {
  const auto gpu = launch_gpu();
  sim::Simulator s(gpu);
  const auto p = s.predict(wl::read_workload_text(tiny_kernels("graph", 10), "graph.toml"));
  double exec = 0;  // every kernel but the first finds its input warm in the L2 (sim/warm_l2.h)
  for (const auto& k : p.kernels) exec += k.timing->exec_us;
  const double first_touch = s.device().launch().first_touch_us;
  CHECK(p.total_us == Approx(2 + 10 * 0.5 + exec + first_touch));
}

SCENARIO("do_bench: an op of three kernels pays one cold launch and two queued ones") {
  const device::Device gpu = launch_gpu();
  CHECK(gpu.launch().standalone_overhead_us(3, false) == Approx(2 + 2 * 1.0));
  CHECK(gpu.launch().standalone_overhead_us(1, true) == Approx(2 + gpu.launch().first_touch_us));
}
