// A stream's reads evict dirty L2 lines, written back while it streams (models/l2_writeback.h):
// dirty * (1 - exp(-read / L2)) bytes of the L2's dirty share (cache.l2_dirty_fraction),
// costing DRAM time only beyond what the in-flight-limited read stream leaves idle
// (device::writeback_over_reads_us, charged by the kernel timer), and none when the loads hit the L2.
#include <catch2/catch.hpp>

#include <cmath>

#include "device/device.h"
#include "device/dram_rate.h"
#include "models/kernel_plan.h"
#include "models/l2_writeback.h"
#include "sim/kernel_timer.h"
#include "sim/op_predictor.h"
#include "support/gpu_builder.h"

using namespace gpucast;

SCENARIO(
    "reading as much as the L2 holds evicts 1 - 1/e of its dirty share; a long stream evicts it all, once") {
  const device::Device gpu(
      test::gpu_builder{}.sms(100).l2_mb(50).set("cache.l2_dirty_fraction", "0.5").build());
  const double lines = gpu.l2_lines_bytes();
  const double dirty = gpu.l2_dirty_bytes();
  REQUIRE(dirty == Approx(0.5 * lines));
  CHECK(models::evicted_dirty_bytes(lines, 1, gpu) == Approx(dirty * (1 - std::exp(-1.0))));
  CHECK(models::evicted_dirty_bytes(100 * lines, 1, gpu) == Approx(dirty));
  // Two launches of half the tensor each: the same lines in all, half charged to each launch.
  CHECK(models::evicted_dirty_bytes(lines / 2, 2, gpu) == Approx(dirty * (1 - std::exp(-1.0)) / 2));
  CHECK(models::evicted_dirty_bytes(0, 1, gpu) == 0);
}

SCENARIO("a stream that also writes evicts only what its own writes would not") {
  const device::Device gpu(test::gpu_builder{}.sms(100).l2_mb(50).build());
  const double lines = gpu.l2_lines_bytes();
  CHECK(models::evicted_dirty_bytes_beyond_writes(lines, 0, gpu) ==
        Approx(models::evicted_dirty_bytes(lines, 1, gpu)));
  CHECK(models::evicted_dirty_bytes_beyond_writes(lines, lines, gpu) ==
        Approx(models::evicted_dirty_bytes(2 * lines, 1, gpu) - models::evicted_dirty_bytes(lines, 1, gpu)));
  CHECK(models::evicted_dirty_bytes_beyond_writes(0, lines, gpu) == 0);
}

SCENARIO(
    "a saturating read stream pays its write-backs at the sustained rate; loads that hit the L2 pay none") {
  const device::Device gpu(test::gpu_builder{}.sms(100).l2_mb(50).bandwidth_gbps(2000).build());
  models::KernelPlan k;
  k.blocks = 100;
  k.threads = 256;
  k.dram_bytes = 1e6;  // per block, all reads; no in-flight limit
  k.l2_bytes = k.dram_bytes;
  const auto clean = sim::time_kernel(k, gpu);
  k.dirty_evicted_bytes = 2e5;
  const auto dirty = sim::time_kernel(k, gpu);
  CHECK(dirty.exec_us - clean.exec_us == Approx(100 * 2e5 / gpu.rates().dram));
  CHECK(dirty.l2_input_exec_us == Approx(clean.l2_input_exec_us));
}

SCENARIO("write-backs hide in the DRAM time an in-flight-limited read stream leaves idle, not a byte more") {
  const device::Device gpu(test::gpu_builder{}.sms(100).l2_mb(50).bandwidth_gbps(2000).build());
  const double read = gpu.l2_lines_bytes();
  const double evicted = models::evicted_dirty_bytes(read, 1, gpu);
  const double dram = gpu.rates().dram;
  // The read rate at which reading alone takes as long as reads plus write-backs at the sustained rate.
  const double rate = dram * read / (read + evicted);
  CHECK(device::writeback_over_reads_us(read, evicted, 0.99 * rate, gpu) == 0);
  CHECK(device::writeback_over_reads_us(read, evicted, 1.01 * rate, gpu) > 0);
  CHECK(device::writeback_over_reads_us(read, evicted, dram, gpu) == Approx(evicted / dram));
}

SCENARIO("a large sum takes at least its reads and the evicted share's write-backs at the sustained rate") {
  const device::Device gpu(test::gpu_builder{}.sms(100).l2_mb(50).build());
  const sim::OpPredictor p(gpu);
  wl::RowOp r;
  r.kind = wl::RowOpKind::reduce;
  r.dtype = DataType::fp32;
  r.rows = 32768;
  r.cols = 4096;
  const double read = 32768.0 * 4096 * 4;
  const auto t = p.rank_options(r).front();
  REQUIRE(t.kernels.size() == 1);
  CHECK(t.kernels[0].exec_us >= (read + models::evicted_dirty_bytes(read, 1, gpu)) / gpu.rates().dram);
}
