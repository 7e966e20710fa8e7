// cuBLAS's FP32 SIMT GEMMs (models/gemm_model.cpp, kFp32SimtTiles): each tile's rate against the
// calibrated one (128 outputs a thread) is its FFMA share of the thread's issue slots, FFMAs beside
// 2*sqrt(outputs)/4 shared-memory loads and 24 other instructions a K element; a block of fewer warps
// than the SM's 4 sub-partitions leaves lanes idle when it runs alone; and K steps 8 deep.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>

#include "device/device.h"
#include "models/gemm_model.h"
#include "support/chosen_plan.h"
#include "support/gemm_builder.h"
#include "support/gpu_builder.h"

using namespace gpucast;

namespace {
double ffma_share(double outputs) {
  return outputs / (outputs + 2 * std::sqrt(outputs) / 4 + 24);
}
}  // namespace

SCENARIO("an FP32 SIMT tile runs at its per-thread tile's FFMA share of the calibrated 128-output rate") {
  const device::Device gpu(test::gpu_builder{}.sms(100).build());
  const auto options = models::gemm_options(test::gemm_shape(4096, 4096, 4096, DataType::fp32), gpu);
  THEN("256x128 on 8 warps (128 outputs a thread) runs at the calibrated rate") {
    CHECK(test::named_kernel(options, "simt gemm 256x128").pipe_efficiency == Approx(1.0));
    CHECK(test::named_kernel(options, "simt gemm 256x128").threads == 256);
  }
  THEN("128x64 on 4 warps (64 outputs a thread) runs at its FFMA share against 128's") {
    CHECK(test::named_kernel(options, "simt gemm 128x64").pipe_efficiency ==
          Approx(ffma_share(64) / ffma_share(128)));
    CHECK(test::named_kernel(options, "simt gemm 128x64").threads == 128);
  }
  THEN("64x64 on 4 warps (32 outputs a thread) runs at about two thirds of it") {
    const double e = test::named_kernel(options, "simt gemm 64x64").pipe_efficiency;
    CHECK(e == Approx(ffma_share(32) / ffma_share(128)));
    CHECK(e == Approx(0.67).margin(0.01));
  }
}

SCENARIO("a two-warp FP32 SIMT block alone on an SM fills half of its sub-partitions") {
  const device::Device gpu(test::gpu_builder{}.sms(100).build());
  const double full = ffma_share(16) / ffma_share(128);
  GIVEN("100 tiles of 32x32 on 100 SMs: one block per SM") {
    const auto& k =
        test::named_kernel(models::gemm_options(test::gemm_shape(10 * 32, 10 * 32, 256, DataType::fp32), gpu),
                           "simt gemm 32x32");
    THEN("its 2 warps use 2 of the 4 sub-partitions") {
      CHECK(k.pipe_efficiency == Approx(0.5 * full));
    }
  }
  GIVEN("101 tiles (1 x 101): two blocks share an SM") {
    const auto& k = test::named_kernel(
        models::gemm_options(test::gemm_shape(32, 101 * 32, 256, DataType::fp32), gpu), "simt gemm 32x32");
    THEN("their 4 warps fill all 4 sub-partitions") {
      CHECK(k.pipe_efficiency == Approx(full));
    }
  }
}

SCENARIO("FP32 SIMT GEMMs step K 8 deep") {
  const device::Device gpu(test::gpu_builder{}.sms(100).build());
  THEN("K = 8 executes 8; K = 9 executes 16") {
    CHECK(test::named_kernel(models::gemm_options(test::gemm_shape(4096, 4096, 8, DataType::fp32), gpu),
                             "simt gemm 128x128")
              .pipe_flops == Approx(2.0 * 128 * 128 * 8));
    CHECK(test::named_kernel(models::gemm_options(test::gemm_shape(4096, 4096, 9, DataType::fp32), gpu),
                             "simt gemm 128x128")
              .pipe_flops == Approx(2.0 * 128 * 128 * 16));
  }
}
