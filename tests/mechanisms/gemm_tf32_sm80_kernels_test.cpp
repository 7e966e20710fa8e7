// Small aligned tf32 GEMMs on Hopper run cuBLAS's Ampere kernels (cutlass_80_tensorop_s1688gemm_*
// _align4) on warp-level mma.sync, not its sm90 wgmma kernels (models/gemm_model.cpp,
// kTf32Sm80MaxFlops): at most 0.55 GFLOP, with each K step of their lone warps lasting at least
// 300 cycles and the epilogue after the K loop; larger ones, and every one before Hopper, keep the
// tensor-core path.
#include <catch2/catch.hpp>

#include <string>

#include "device/device.h"
#include "models/gemm_model.h"
#include "models/op_model.h"
#include "support/gemm_builder.h"
#include "support/gpu_builder.h"

using namespace gpucast;

namespace {
hw::GpuSpec gpu_spec(const std::string& cc = "\"9.0\"") {
  return test::gpu_builder{}.tensor_tflops("tf32", 400).set("compute_capability", cc).build();
}

models::KernelPlan kernel(const std::vector<models::PlanOption>& options, const std::string& name) {
  for (const auto& o : options)
    if (o.name == name) return o.kernels.front();
  FAIL("no option " << name);
  return options.front().kernels.front();
}
}  // namespace

SCENARIO("aligned tf32 GEMMs of at most 0.55 GFLOP run the sm80 mma.sync kernels on Hopper") {
  const device::Device hopper(gpu_spec());
  // 2 x 512 x 512 x 1024 = 0.537 GFLOP; k = 1056: 0.554 GFLOP.
  const auto small = models::plan_op(test::gemm_op(512, 512, 1024, DataType::tf32), hopper);
  const auto large = models::plan_op(test::gemm_op(512, 512, 1056, DataType::tf32), hopper);
  for (const auto& o : small) CHECK(o.name.rfind("mma.sync gemm", 0) == 0);
  for (const auto& o : large) CHECK(o.name.rfind("mma.sync", 0) == std::string::npos);
  THEN("before Hopper the same GEMM keeps the tensor-core path") {
    const device::Device ampere(gpu_spec("\"8.0\""));
    for (const auto& o : models::plan_op(test::gemm_op(512, 512, 1024, DataType::tf32), ampere))
      CHECK(o.name.rfind("mma.sync", 0) == std::string::npos);
  }
  THEN("bf16 GEMMs of that size keep the tensor-core path") {
    for (const auto& o : models::plan_op(test::gemm_op(512, 512, 1024, DataType::bf16), hopper))
      CHECK(o.name.rfind("mma.sync", 0) == std::string::npos);
  }
}

SCENARIO("each K step of a small tf32 GEMM's sm80 kernel lasts at least 300 cycles") {
  const device::Device gpu(gpu_spec());
  // k = 512: 32 K steps of 16 tf32 elements (one 64-byte row).
  const auto planned =
      kernel(models::plan_op(test::gemm_op(512, 512, 512, DataType::tf32), gpu), "mma.sync gemm 64x64");
  models::GemmShape g;
  g.m = g.n = g.k = 512;
  g.in = g.out = DataType::tf32;
  g.warp_mma = g.exposed_epilogue = true;
  g.cluster_multicast = false;
  const auto pipelined = kernel(models::gemm_options(g, gpu), "mma.sync gemm 64x64");
  CHECK(planned.fixed_cycles - pipelined.fixed_cycles == Approx(32 * 300));
  CHECK(planned.pipe == models::Pipe::mma_sync);
}
