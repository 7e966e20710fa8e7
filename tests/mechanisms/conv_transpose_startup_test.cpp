// cuDNN's nhwcToNchw / nchwToNhwc transposes around the FP32 NCHW implicit GEMM
// (models/conv_fma_nchw.cpp, kTransposeStartupCycles) last a fixed time beyond their bytes and
// instructions, as the channel-padding copies do: a transpose of a few elements takes that time.
#include <catch2/catch.hpp>

#include "models/op_model.h"
#include "sim/kernel_timer.h"
#include "support/conv_builder.h"
#include "support/gpu_builder.h"

using namespace gpucast;

SCENARIO("a tiny transpose lasts its 1,500-cycle startup; the GEMM between the transposes does not pay it") {
  const device::Device gpu(test::gpu_builder{}.build());
  // 1 x 128 x 8 x 8 fp32, 1x1, 64 filters: 8,192- and 4,096-element transposes (128 channels: the
  // NCHW path at every image size).
  const auto op = test::conv_builder{}
                      .batch(1)
                      .channels(128)
                      .image(8)
                      .filters(64)
                      .kernel(1)
                      .dtype(DataType::fp32)
                      .allow_tf32(false)
                      .build();
  const auto kernels = models::plan_op(op, gpu).front().kernels;
  REQUIRE(kernels.size() == 3);
  CHECK(kernels.front().startup_cycles == 1500);
  CHECK(kernels.back().startup_cycles == 1500);
  CHECK(kernels[1].startup_cycles == 0);
  CHECK(sim::time_kernel(kernels.front(), gpu).exec_us >= gpu.cycles_to_us(1500));
}
