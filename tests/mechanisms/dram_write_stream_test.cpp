// Stores beyond a kernel's reads stream at the store-only rate (efficiency.dram_write_stream): no read
// shares the DRAM bus with them, so it never turns around. Stores paired with reads keep the sustained
// rate (efficiency.dram_bandwidth), and the store-only rate is never below it (sim/kernel_timer.cpp,
// device/device.cpp).
#include <catch2/catch.hpp>

#include "device/device.h"
#include "models/kernel_plan.h"
#include "sim/kernel_timer.h"
#include "support/gpu_builder.h"

using namespace gpucast;

namespace {

// 100 blocks on 100 SMs, one wave; `reads` and `writes` bytes per block, nothing else bounds it.
models::KernelPlan stream(double reads, double writes) {
  models::KernelPlan k;
  k.blocks = 100;
  k.threads = 256;
  k.dram_bytes = reads + writes;
  k.dram_write_bytes = writes;
  k.l2_bytes = k.dram_bytes;
  return k;
}

device::Device gpu_with(const char* write_stream) {
  return device::Device(test::gpu_builder{}
                            .sms(100)
                            .bandwidth_gbps(2000)
                            .set("efficiency.dram_bandwidth", "0.9")
                            .set("efficiency.dram_write_stream", write_stream)
                            .build());
}

// The time of its memory-bound wave (the kernel's fill and start are apart from it).
double memory_us(const models::KernelPlan& k, const device::Device& gpu) {
  const auto t = sim::time_kernel(k, gpu);
  REQUIRE(t.memory_us > t.latency_us);
  return t.memory_us;
}

}  // namespace

SCENARIO("a fill streams every store at the store-only rate") {
  const auto gpu = gpu_with("0.98");
  REQUIRE(gpu.rates().dram_write_stream == Approx(0.98 * 2000 * 1e3));
  CHECK(memory_us(stream(0, 1e6), gpu) == Approx(100 * 1e6 / gpu.rates().dram_write_stream));
}

SCENARIO("a copy's stores are all paired with reads: the sustained rate, exactly at writes = reads") {
  const auto gpu = gpu_with("0.98");
  CHECK(memory_us(stream(1e6, 1e6), gpu) == Approx(100 * 2e6 / gpu.rates().dram));
}

SCENARIO("stores beyond the reads take the store-only rate, those paired with reads the sustained one") {
  const auto gpu = gpu_with("0.98");
  const auto& r = gpu.rates();
  CHECK(memory_us(stream(1e6, 3e6), gpu) == Approx(100 * (2e6 / r.dram + 2e6 / r.dram_write_stream)));
  // One byte more of reads than stores: no store is unpaired.
  CHECK(memory_us(stream(1e6 + 1, 1e6), gpu) == Approx(100 * (2e6 + 1) / r.dram));
}

SCENARIO("a store-only rate set below the sustained rate is held at the sustained rate") {
  const auto gpu = gpu_with("0.5");
  CHECK(gpu.rates().dram_write_stream == Approx(gpu.rates().dram));
  CHECK(memory_us(stream(0, 1e6), gpu) == Approx(100 * 1e6 / gpu.rates().dram));
}

SCENARIO("do_bench's flush is a fill: it takes 256 MiB at the store-only rate") {
  const auto gpu = gpu_with("0.98");
  CHECK(gpu.launch().flush_us == Approx(256.0 * 1024 * 1024 / gpu.rates().dram_write_stream));
}
