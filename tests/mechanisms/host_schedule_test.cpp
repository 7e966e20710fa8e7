// One interface for the host side (sim/host_schedule.h): a workload that replays its host keeps the
// recorded delays whatever the host description says; any other workload pays the description.
#include <catch2/catch.hpp>

#include "sim/simulator.h"
#include "support/gpu_builder.h"
#include "workloads/workload_file.h"

using namespace gpucast;

namespace {
hw::HostSpec slow_host() {
  hw::HostSpec h;
  h.id = "slow";
  h.op_dispatch_us = 100;
  h.launch_us = 100;
  return h;
}
const std::string kKernel = "[[kernel]]\nop = \"elementwise\"\nelements = 64\ndtype = \"fp32\"\n";
}  // namespace

SCENARIO("a replayed host keeps its recorded delays; a generated one pays the host description") {
  sim::Simulator s(test::gpu_builder{}.build(), slow_host());
  const auto replayed = s.predict(
      wl::read_workload_text(kKernel + "host_delay_us = 7\n" + kKernel + "host_delay_us = 3\n", "r.toml"));
  CHECK(replayed.host_busy_us == Approx(10));
  CHECK(replayed.host_delay_us == Approx(10));
  CHECK(replayed.kernels[1].host_begin_us == Approx(10));  // when the host issued it
  const auto described = s.predict(wl::read_workload_text(kKernel + kKernel, "d.toml"));
  CHECK(described.host_busy_us == Approx(2 * 200));
}
