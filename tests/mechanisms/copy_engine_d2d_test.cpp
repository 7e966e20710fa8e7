// A device-to-device copy (cudaMemcpyAsync, models/memory_op_models.cpp) is a copy-engine activity,
// not a kernel: no blocks on the SMs, the first read's DRAM round trip, then both directions' bytes at
// the description's copy-engine rate (efficiency.copy_engine of memory.bandwidth_gbps, its own figure:
// not the kernels' DRAM rate); an empty copy has no first read.
#include <catch2/catch.hpp>

#include "models/memory_op_models.h"
#include "support/gpu_builder.h"

using namespace gpucast;

namespace {
models::KernelPlan copy_plan(double bytes, const device::Device& gpu) {
  return models::CopyModel{}.plan(wl::Op{wl::CopyOp{bytes, wl::CopyKind::d2d}}, gpu).at(0).kernels.at(0);
}
}  // namespace

SCENARIO("a device-to-device copy runs on the copy engine, not the SMs") {
  const device::Device gpu = test::gpu_builder{}.build();
  const auto k = copy_plan(1e6, gpu);
  CHECK(k.name == "copy engine device->device");
  CHECK(k.blocks == 1);
  CHECK(k.fixed_cycles == 0);
  CHECK(k.dram_bytes == 0);  // nothing for the SMs' memory term: the engine's time is extra_us
}

SCENARIO("the copy engine waits one DRAM round trip, then moves both directions at the memcpy rate") {
  const device::Device gpu = test::gpu_builder{}.build();
  const double rate = gpu.rates().copy_engine;      // bytes per us
  REQUIRE(rate == Approx(0.9 * gpu.rates().dram));  // the builder: copy_engine 0.9, dram_bandwidth 1.0
  GIVEN("one byte") {
    CHECK(copy_plan(1, gpu).extra_us == Approx(gpu.latency().dram + 2 / rate));
    CHECK(copy_plan(1, gpu).reads_dram);
  }
  GIVEN("1 GB") {
    CHECK(copy_plan(1e9, gpu).extra_us == Approx(gpu.latency().dram + 2e9 / rate));
  }
  GIVEN("nothing to copy") {
    CHECK(copy_plan(0, gpu).extra_us == 0);
    CHECK_FALSE(copy_plan(0, gpu).reads_dram);
  }
}
