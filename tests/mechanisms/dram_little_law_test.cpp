// The Little's-law bandwidth curve (sim/kernel_timer.cpp): with B bytes in flight across the GPU,
// DRAM delivers BW (1 - exp(-B / (BW L))). At B = BW L (bandwidth x latency) that is 1 - 1/e.
#include <catch2/catch.hpp>

#include <cmath>

#include "sim/kernel_timer.h"
#include "support/gpu_builder.h"

using namespace gpucast;

SCENARIO("bytes in flight equal to bandwidth x latency reach 1 - 1/e of the bandwidth") {
  // 1000 GB/s = 1e6 B/us; DRAM latency 1000 cycles at 1 GHz = 1 us: BW x L = 1 MB in flight.
  const device::Device gpu = test::gpu_builder{}.set("latency.dram_cycles", "1000.0").build();
  models::KernelPlan k;
  k.name = "stream";
  k.threads = 128;
  k.max_blocks_per_sm = 1;
  k.blocks = 100;                 // one wave
  k.bytes_in_flight = 1e6 / 100;  // 1 MB outstanding across the GPU
  k.dram_bytes = 1e9 / 100;       // 1 GB read, so the curve dominates fill and rounds
  k.dram_rounds = 0;
  const double t = sim::time_kernel(k, gpu).exec_us;
  const double expected = 1e9 / (1e6 * (1 - std::exp(-1.0)));
  CHECK(t == Approx(expected).epsilon(0.005));

  AND_WHEN("a block keeps nothing in flight (a TMA-style pipeline)") {
    k.bytes_in_flight = 0;
    THEN("it streams at the full rate") {
      CHECK(sim::time_kernel(k, gpu).exec_us == Approx(1e9 / 1e6).epsilon(0.005));
    }
  }
}
