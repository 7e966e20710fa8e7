// cuDNN's direct NHWC FP32 kernel stores output rows that are not whole 32-byte sectors (k not a
// multiple of 8 in fp32) at a share of the streaming store rate once its output outgrows the L2
// (models/conv_fma_direct.cpp, kDirectUnalignedStoreEfficiency = 0.12); aligned rows and outputs that
// fit the L2 store at the full rate. One boundary per scenario.
#include <catch2/catch.hpp>

#include "models/op_model.h"
#include "sim/kernel_timer.h"
#include "support/conv_builder.h"
#include "support/gpu_builder.h"

using namespace gpucast;

namespace {
// 50 MiB of L2, as the H100's.
device::Device l2_50mb() {
  return device::Device(test::gpu_builder{}.set("cache.l2_mb", "50.0").build());
}
// 1x1 over 16 x 113 x 113 images (an odd pixel count: the direct kernel at 24 channels).
models::KernelPlan direct(wl::Count k, wl::Count batch = 16) {
  const auto op = test::conv_builder{}
                      .batch(batch)
                      .channels(24)
                      .image(113)
                      .filters(k)
                      .kernel(1)
                      .dtype(DataType::fp32)
                      .allow_tf32(false)
                      .build();
  const auto options = models::plan_op(op, l2_50mb());
  REQUIRE(options.size() == 1);
  REQUIRE(options.front().kernels.size() == 1);
  return options.front().kernels.front();
}
}  // namespace

SCENARIO("rows of 100 fp32 channels (400 bytes) store slowly; 96 and 104 (whole sectors) do not") {
  CHECK(direct(100).dram_write_efficiency == Approx(0.12));
  CHECK(direct(96).dram_write_efficiency == 1);
  CHECK(direct(104).dram_write_efficiency == 1);
}

SCENARIO("the slow stores start once the output outgrows the L2") {
  // 100 channels x 4 bytes x 113 x 113 pixels = 5.11 MB an image: 10 images (51.1 MB) fit 50 MiB
  // (52.4 MB), 11 do not.
  CHECK(direct(100, 10).dram_write_efficiency == 1);
  CHECK(direct(100, 11).dram_write_efficiency == Approx(0.12));
}

SCENARIO("a slow store share lengthens a store-bound kernel by the stores' extra time") {
  auto slow = direct(100);
  auto full = slow;
  full.dram_write_efficiency = 1;
  const auto gpu = l2_50mb();
  CHECK(sim::time_kernel(slow, gpu).exec_us > sim::time_kernel(full, gpu).exec_us);
}
