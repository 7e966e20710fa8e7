// cuDNN's tensor-core convolution kernels pay a prologue once per kernel (models/conv_prologue.h):
// the implicit-GEMM kernels of a 3x3 convolution and the sm80 indexed few-channel kernel carry it,
// the cuBLAS GEMM of a 1x1 stride-1 convolution and the memsets beside the conv kernels do not. On
// Hopper the warp-specialized sm90 kernels run at 0.90 of the GEMM rate at their clock (set after the
// power limiter, models/conv_model.cpp); the sm80 kernels keep their implicit-GEMM share.
#include <catch2/catch.hpp>

#include "models/conv_prologue.h"
#include "models/op_model.h"
#include "support/conv_builder.h"
#include "support/gpu_builder.h"

using namespace gpucast;

namespace {
wl::Conv2dOp conv(wl::Count c, wl::Count r, DataType t) {
  return test::conv_builder{}.batch(8).channels(c).image(28).filters(128).kernel(r).dtype(t).build();
}
hw::GpuSpec hopper() {
  return test::gpu_builder{}.tensor_tflops("tf32", 200).set("efficiency.tensor.tf32", "1.0").build();
}
const models::KernelPlan& main_kernel(const models::PlanOption& o) {
  const models::KernelPlan* best = &o.kernels.front();
  for (const auto& k : o.kernels)
    if (k.pipe_flops > best->pipe_flops) best = &k;
  return *best;
}
}  // namespace

SCENARIO("every implicit-GEMM option of a 3x3 convolution carries the cuDNN prologue on its conv kernel") {
  const device::Device gpu(hopper());
  for (const auto& o : models::plan_op(conv(64, 3, DataType::bf16), gpu)) {
    CHECK(main_kernel(o).startup_cycles >= models::kCudnnConvPrologueCycles);
    for (const auto& k : o.kernels)
      if (k.pipe == device::Pipe::none) CHECK(k.startup_cycles < models::kCudnnConvPrologueCycles);
  }
}

SCENARIO("the cuBLAS GEMM of a 1x1 stride-1 convolution has no cuDNN prologue") {
  const device::Device gpu(hopper());
  const auto pointwise = models::plan_op(conv(64, 1, DataType::bf16), gpu);
  const auto filter3 = models::plan_op(conv(64, 3, DataType::bf16), gpu);
  CHECK(main_kernel(filter3.front()).startup_cycles - main_kernel(pointwise.front()).startup_cycles ==
        Approx(models::kCudnnConvPrologueCycles));
}

SCENARIO("the sm80 indexed few-channel kernel carries the prologue") {
  const device::Device gpu(hopper());
  const auto options = models::plan_op(conv(3, 7, DataType::fp16), gpu);
  CHECK(main_kernel(options.front()).startup_cycles == Approx(models::kCudnnConvPrologueCycles));
}

SCENARIO("sm90 implicit-GEMM kernels run at 0.90 of the GEMM rate; the sm80 few-channel kernel below it") {
  const device::Device gpu(hopper());
  // 64 bf16 channels: sm90 kernels, tiles at least 64 wide (no narrow-tile share); a GPU without a
  // power limiter, so the description's efficiency is the GEMM rate at every clock.
  for (const auto& o : models::plan_op(conv(64, 3, DataType::bf16), gpu))
    if (o.name.find("128x128") != std::string::npos) CHECK(main_kernel(o).pipe_efficiency == Approx(0.90));
  // 32 bf16 channels: the sm80 mma.sync kernel.
  for (const auto& o : models::plan_op(conv(32, 3, DataType::bf16), gpu))
    CHECK(main_kernel(o).pipe_efficiency < 1.0);
}
