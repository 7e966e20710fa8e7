// Cooperative GEMM kernels expose their epilogue (models/gemm_model.cpp): tiles larger than 128x128
// run cuBLAS's coop kernels (both consumer warpgroups on one tile), so each tile's serial epilogue
// cycles and output drain keep the tensor cores idle after its K loop; 128x128 and smaller tiles run
// ping-pong kernels whose epilogue hides under the other warpgroup's K loop. cuBLAS's coop tiles also
// wait out a quarter of their output tile's DRAM store.
#include <catch2/catch.hpp>

#include <string>

#include "device/device.h"
#include "models/gemm_model.h"
#include "support/chosen_plan.h"
#include "support/gemm_builder.h"
#include "support/gpu_builder.h"

using namespace gpucast;

namespace {
// Tile mainloop time at the plan's efficiency.
double mainloop_us(const models::KernelPlan& k, const device::Device& gpu) {
  return k.pipe_flops / (gpu.pipe_rate(k.pipe, k.dtype) * k.pipe_efficiency);
}
}  // namespace

SCENARIO("a 128x128 tile (ping-pong) hides its epilogue: its mainloop runs at the tensor rate") {
  const device::Device gpu(test::gpu_builder{}.build());  // Hopper
  const auto options = models::gemm_options(test::gemm_shape(8192, 8192, 256), gpu);
  const auto& k = test::named_kernel(options, "gemm 128x128");
  CHECK(k.pipe_efficiency == Approx(gpu.matrix_clock_factor()));
}

SCENARIO("a 256x128 tile (cooperative) adds its epilogue cycles to its mainloop") {
  const device::Device gpu(test::gpu_builder{}.build());
  const auto options = models::gemm_options(test::gemm_shape(8192, 8192, 256), gpu);
  const auto& k = test::named_kernel(options, "gemm 256x128");
  const double ideal_us = k.pipe_flops / (gpu.pipe_rate(k.pipe, k.dtype) * gpu.matrix_clock_factor());
  THEN(
      "the tile takes its ideal mainloop plus 600 cycles, its output tile's drain at 64 B/cycle and a "
      "quarter of its DRAM store at the SM's share of the DRAM rate") {
    const double epilogue_cycles = 600 + 256.0 * 128 * 2 / 64;
    const double store_us = 0.25 * 256.0 * 128 * 2 / (gpu.rates().dram / gpu.sms());
    CHECK(mainloop_us(k, gpu) == Approx(ideal_us + gpu.cycles_to_us(epilogue_cycles) + store_us));
  }
}

SCENARIO("cuDNN's convolution tiles (a library's own tile list) expose no share of their DRAM store") {
  const device::Device gpu(test::gpu_builder{}.build());
  auto g = test::gemm_shape(8192, 8192, 256);
  g.tiles = {{256, 128}};
  const auto& k = test::named_kernel(models::gemm_options(g, gpu), "gemm 256x128");
  const double ideal_us = k.pipe_flops / (gpu.pipe_rate(k.pipe, k.dtype) * gpu.matrix_clock_factor());
  CHECK(mainloop_us(k, gpu) == Approx(ideal_us + gpu.cycles_to_us(600 + 256.0 * 128 * 2 / 64)));
}

SCENARIO("the exposed epilogue matters less as K grows") {
  const device::Device gpu(test::gpu_builder{}.build());
  const auto short_k = models::gemm_options(test::gemm_shape(8192, 8192, 256), gpu);
  const auto long_k = models::gemm_options(test::gemm_shape(8192, 8192, 8192), gpu);
  CHECK(test::named_kernel(short_k, "gemm 256x128").pipe_efficiency <
        test::named_kernel(long_k, "gemm 256x128").pipe_efficiency);
}
