// Vendor-specific execution width and block-scaled types: an AMD wavefront holds 64 threads, so a
// block's occupancy and SIMT issue differ from a 32-wide warp; an FP4 GEMM runs at twice FP8's rate.
#include <catch2/catch.hpp>

#include "device/device.h"
#include "sim/kernel_timer.h"
#include "sim/op_predictor.h"
#include "sim/simulator.h"
#include "support/gpu_builder.h"

using namespace gpucast;
using test::gpu_builder;

SCENARIO("an AMD GPU's kernels are counted in 64-wide wavefronts") {
  GIVEN("a built GPU of the cdna3 architecture") {
    const auto amd = gpu_builder{}.set("architecture", "\"cdna3\"").set("compute_capability", "\"gfx942\"").build();
    THEN("its warp size defaults to 64, an NVIDIA one's to 32") {
      CHECK(amd.sm.warp_size == 64);
      CHECK(gpu_builder{}.build().sm.warp_size == 32);
    }
  }
  GIVEN("one GPU at warp size 32 and 64, and a 96-thread block using 64 registers per thread") {
    const auto w32 = gpu_builder{}.set("sm.warp_size", "32").build();
    const auto w64 = gpu_builder{}.set("sm.warp_size", "64").build();
    models::KernelPlan k;
    k.name = "small blocks";
    k.threads = 96;
    k.registers = 64;
    k.blocks = 10000;
    k.simt_instructions = 1000;
    THEN("the 64-wide GPU allocates registers for 128 threads per block and holds fewer blocks") {
      // 65536 registers per SM: 3 warps x 2048 = 6144 per block -> 10; 2 wavefronts x 4096 = 8192 -> 8.
      CHECK(sim::time_kernel(k, device::Device(w32)).blocks_per_sm == 10);
      CHECK(sim::time_kernel(k, device::Device(w64)).blocks_per_sm == 8);
    }
  }
}

SCENARIO("an fp4 GEMM takes about half the time of an fp8 one when compute bound") {
  const auto gpu = gpu_builder{}
                       .tensor_tflops("fp4", 1600)
                       .set("efficiency.tensor.fp4", "1.0")
                       .set("architecture", "\"blackwell-dc\"")
                       .set("compute_capability", "\"10.0\"")
                       .build();
  wl::GemmOp g;
  g.m = g.n = g.k = 16384;
  g.dtype = DataType::fp8;
  g.out_dtype = DataType::bf16;
  sim::OpPredictor p(gpu);
  const auto fp8 = p.predict(g);
  g.dtype = DataType::fp4;
  const auto fp4 = p.predict(g);
  CHECK(fp8.bound == sim::Bound::compute);
  CHECK(fp4.bound == sim::Bound::compute);
  CHECK(fp4.duration_us / fp8.duration_us == Approx(0.5).epsilon(0.1));
}

SCENARIO("a GPU without fp4 tensor cores cannot run an fp4 GEMM") {
  const auto gpu = gpu_builder{}.build();
  wl::GemmOp g;
  g.m = g.n = g.k = 1024;
  g.dtype = DataType::fp4;
  g.out_dtype = DataType::bf16;
  sim::OpPredictor p(gpu);
  CHECK_THROWS_AS(p.predict(g), UnsupportedError);
}
