// cuDNN on Hopper (models/conv_model.cpp): beside its sm90 kernels a 16-bit implicit-GEMM
// convolution may run the sm80 mma.sync kernels (tiles 64x32, 64x64 and 128x32), tf32 has none; and
// no cuDNN convolution kernel is split over K with a separate reduce kernel on Hopper (segment-K or a
// small sm80 tile instead), while older GPUs keep the split-K options. The sm80 kernels are offered
// for grids of one wave at most.
#include <catch2/catch.hpp>

#include <string>

#include "models/op_model.h"
#include "support/conv_builder.h"
#include "support/gpu_builder.h"

using namespace gpucast;

namespace {
// One image of 8x8 pixels, 1,280 channels in and out: M = 64 over K = 11,520, the shape split-K is for.
wl::Conv2dOp deep(DataType dtype) {
  return test::conv_builder{}
      .batch(1)
      .channels(1280)
      .image(8)
      .filters(1280)
      .kernel(3)
      .dtype(dtype)
      .pad(1)
      .build();
}
bool offers(const std::vector<models::PlanOption>& options, const std::string& part) {
  for (const auto& o : options)
    if (o.name.find(part) != std::string::npos) return true;
  return false;
}
hw::GpuSpec ampere() {
  return test::gpu_builder{}
      .set("architecture", "\"ampere\"")
      .set("compute_capability", "\"8.0\"")
      .set("sm.shared_memory_kb", "164.0")
      .build();
}
}  // namespace

SCENARIO("a Hopper bf16 convolution also tries the sm80 mma.sync tiles 64x32, 64x64 and 128x32") {
  const device::Device gpu(test::gpu_builder{}.build());
  const auto options = models::plan_op(deep(DataType::bf16), gpu);
  CHECK(offers(options, "mma.sync gemm 64x32"));
  CHECK(offers(options, "mma.sync gemm 64x64"));
  CHECK(offers(options, "mma.sync gemm 128x32"));
  CHECK_FALSE(offers(options, "mma.sync gemm 128x64"));
}

SCENARIO("a Hopper tf32 convolution has no sm80 mma.sync option") {
  const device::Device gpu(test::gpu_builder{}.tensor_tflops("tf32", 400).build());
  CHECK_FALSE(offers(models::plan_op(deep(DataType::tf32), gpu), "mma.sync"));
}

SCENARIO("no Hopper convolution is split over K with a reduce kernel; an Ampere one may be") {
  CHECK_FALSE(
      offers(models::plan_op(deep(DataType::bf16), device::Device(test::gpu_builder{}.build())), "split-k"));
  CHECK(offers(models::plan_op(deep(DataType::bf16), device::Device(ampere())), "split-k"));
}

SCENARIO("the sm80 mma.sync kernels are offered for grids of one wave at most") {
  const device::Device gpu(test::gpu_builder{}.sms(100).build());
  auto conv = [](wl::Count image) {
    return test::conv_builder{}.batch(1).channels(64).image(image).filters(64).kernel(3).pad(1).build();
  };
  // 80x80 outputs: 100 tiles of 64x64 on 100 SMs; 81x81: 103.
  CHECK(offers(models::plan_op(conv(80), gpu), "mma.sync gemm 64x64"));
  CHECK_FALSE(offers(models::plan_op(conv(81), gpu), "mma.sync gemm 64x64"));
  CHECK(offers(models::plan_op(conv(81), gpu), ": gemm 64x64"));
}

SCENARIO("a Hopper few-channel convolution tries CUTLASS's fprop tiles only: 256x64, 64x128 and 64x64") {
  // 16 bf16 channels (32 bytes) run the few-channel kernel; none of its tiles spans under 64 output
  // channels, even for 16 of them.
  const device::Device gpu(test::gpu_builder{}.build());
  const auto op = test::conv_builder{}.batch(4).channels(16).image(99).filters(16).kernel(5).build();
  const auto options = models::plan_op(op, gpu);
  REQUIRE_FALSE(options.empty());
  for (const auto& option : options) {
    const std::string& name = option.kernels.back().name;
    const bool cutlass_tile = name.find("gemm 256x64") != std::string::npos ||
                              name.find("gemm 64x128") != std::string::npos ||
                              name.find("gemm 64x64") != std::string::npos;
    CHECK(cutlass_tile);
  }
}
