// TMA bulk copies (KernelPlan::bulk_async_loads) are served by the L2 at 1.1x the description's L2
// rate, which is the calibration's re-read benchmark of ordinary loads (sim/kernel_timer.cpp,
// kBulkCopyL2RateOverBenchmark; fitted on cuDNN's sm90 convolutions). Loads without the flag take the
// description's rate.
#include <catch2/catch.hpp>

#include "sim/kernel_timer.h"
#include "support/gpu_builder.h"

using namespace gpucast;

namespace {
// An L2-bound grid: many blocks that each read a megabyte the L2 holds, nothing else to do.
models::KernelPlan l2_bound(bool bulk) {
  models::KernelPlan k;
  k.blocks = 100000;
  k.threads = 128;
  k.l2_bytes = 1e6;
  k.bulk_async_loads = bulk;
  return k;
}
}  // namespace

SCENARIO("an L2-bound kernel's bulk copies take 1 / 1.1 of its ordinary loads' time") {
  const device::Device gpu(test::gpu_builder{}.build());
  const double ordinary_us = sim::time_kernel(l2_bound(false), gpu).exec_us;
  const double bulk_us = sim::time_kernel(l2_bound(true), gpu).exec_us;
  THEN("ordinary loads stream at the description's L2 rate") {
    CHECK(ordinary_us == Approx(100000 * 1e6 / gpu.rates().l2).epsilon(0.01));
  }
  THEN("bulk copies at 1.1x it") {
    CHECK(bulk_us * 1.1 == Approx(ordinary_us).epsilon(0.01));
  }
}
