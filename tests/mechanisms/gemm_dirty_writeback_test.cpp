// A weight-streaming GEMM evicts the dirty L2 lines do_bench's flush (or a step's earlier outputs)
// left, and they are written back while it streams (models/l2_writeback.h, models/gemm_model.cpp);
// the kernel timer lets write-backs fill the DRAM time the read stream leaves idle, whatever holds
// the stream back, and charges only what exceeds it (sim/kernel_timer.cpp).
#include <catch2/catch.hpp>

#include <string>

#include "device/device.h"
#include "models/kernel_plan.h"
#include "models/l2_writeback.h"
#include "models/op_model.h"
#include "sim/kernel_timer.h"
#include "support/gemm_builder.h"
#include "support/gpu_builder.h"

using namespace gpucast;

SCENARIO("a weight-streaming GEMM carries the write-backs of the dirty lines its weight evicts") {
  const device::Device gpu(test::gpu_builder{}.build());
  const wl::GemmOp g = test::gemm_builder{}.mnk(8, 16384, 4096).build();
  const double weight = 16384.0 * 4096 * 2;
  int unsplit = 0;
  for (const auto& option : models::plan_op(g, gpu)) {
    const auto& k = option.kernels.front();
    // Split-K options also write and reread fp32 partials (their own dirty lines).
    if (k.name.find("split") != std::string::npos || k.name.find("segment") != std::string::npos) continue;
    ++unsplit;
    INFO(k.name);
    // At least what streaming the weight once evicts (a tile order may reread some of it), at most
    // every dirty line.
    CHECK(k.dirty_evicted_bytes * k.blocks >= 0.99 * models::evicted_dirty_bytes(weight, 1, gpu));
    CHECK(k.dirty_evicted_bytes * k.blocks <= gpu.l2_dirty_bytes());
  }
  CHECK(unsplit > 0);
}

SCENARIO("a GEMM writing as much as it reads evicts no more dirty lines than its writes replace") {
  const device::Device gpu(test::gpu_builder{}.build());
  // 8192 x 8192 output from K = 64: 128 MB written, 2 MB read.
  const wl::GemmOp g = test::gemm_builder{}.mnk(8192, 8192, 64).build();
  const models::KernelPlan k =
      models::plan_op(g, gpu).front().kernels.front();  // a copy: the plan is a temporary
  CHECK(k.dirty_evicted_bytes * k.blocks < 0.01 * gpu.l2_dirty_bytes());
}

SCENARIO("write-backs fill the DRAM time an SM-limited read stream leaves idle, and no more") {
  // 100 SMs at 10 GB/s each draw 1 TB/s of a 2 TB/s DRAM: the reads take twice their DRAM time.
  const device::Device gpu(test::gpu_builder{}.sms(100).bandwidth_gbps(2000).sm_bandwidth_gbps(10).build());
  models::KernelPlan k;
  k.blocks = 100;
  k.threads = 256;
  k.dram_bytes = 1e6;  // per block, all reads
  k.l2_bytes = k.dram_bytes;
  const double clean = sim::time_kernel(k, gpu).exec_us;
  // One block an SM streams for dram_bytes / sm_dram; the DRAM could move dram x that meanwhile.
  const double stream_us = k.dram_bytes / gpu.rates().sm_dram;
  REQUIRE(stream_us > k.blocks * k.dram_bytes / gpu.rates().dram);
  const double idle_bytes = (gpu.rates().dram * stream_us - k.blocks * k.dram_bytes) / k.blocks;
  k.dirty_evicted_bytes = 0.99 * idle_bytes;
  CHECK(sim::time_kernel(k, gpu).exec_us == Approx(clean));
  k.dirty_evicted_bytes = 1.01 * idle_bytes;
  CHECK(sim::time_kernel(k, gpu).exec_us > clean);
}
