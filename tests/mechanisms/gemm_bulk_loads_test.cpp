// cuBLAS's Hopper tensor-core GEMM kernels load their operand tiles with TMA bulk copies: the kernel
// timer gives them the bulk-copy L2 rate and no single-SM load limit (sim/kernel_timer.cpp), as for
// cuDNN's sm90 convolutions and the warpgroup attention kernels. mma.sync kernels (the unaligned
// fallback, GPUs before Hopper) load with cp.async and keep the ordinary rates.
#include <catch2/catch.hpp>

#include <string>

#include "device/device.h"
#include "models/op_model.h"
#include "support/gemm_builder.h"
#include "support/gpu_builder.h"

using namespace gpucast;

namespace {
models::KernelPlan main_kernel(const wl::GemmOp& g, const std::string& cc) {
  const device::Device gpu(test::gpu_builder{}.set("compute_capability", cc).build());
  return models::plan_op(g, gpu).front().kernels.front();
}
}  // namespace

SCENARIO("Hopper's tensor-core GEMM tiles load with bulk copies; mma.sync tiles do not") {
  CHECK(main_kernel(test::gemm_op(4096, 4096, 4096), "\"9.0\"").bulk_async_loads);
  CHECK_FALSE(main_kernel(test::gemm_op(4096, 4096, 4096), "\"8.0\"").bulk_async_loads);
  THEN("an unaligned bf16 GEMM (cuBLAS's sm75/sm80 fallback on mma.sync) keeps cp.async loads") {
    CHECK_FALSE(main_kernel(test::gemm_op(4093, 2039, 1021), "\"9.0\"").bulk_async_loads);
  }
}
