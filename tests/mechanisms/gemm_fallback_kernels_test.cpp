// cuBLAS's fallback and SIMT GEMMs are CUTLASS 2.x kernels (models/gemm_model.cpp): small fp16
// align1 GEMMs run the sm75 WMMA kernel's 32x32 tiles; the sm75 align1 kernels' K steps wait on
// their narrow loads (at least 1,000 cycles a step); and kernels without a warp-specialized
// epilogue (SIMT, fallback) drain each wave's output tiles through DRAM after their K loops.
#include <catch2/catch.hpp>

#include <string>

#include "device/device.h"
#include "models/gemm_model.h"
#include "models/op_model.h"
#include "support/gemm_builder.h"
#include "support/gpu_builder.h"

using namespace gpucast;

namespace {
wl::GemmOp gemm(wl::Count m, wl::Count n, wl::Count k, DataType t) {
  return test::gemm_op(m, n, k, t);
}

// Returns a copy: the caller's options are a temporary.
models::KernelPlan kernel(const std::vector<models::PlanOption>& options, const std::string& name) {
  for (const auto& o : options)
    if (o.name == name) return o.kernels.front();
  FAIL("no option " << name);
  return options.front().kernels.front();
}

// The shape GemmModel gives a 16-bit align1 GEMM (the sm75 fallback), or a plain one.
models::GemmShape shape(double m, double n, double k, DataType t, bool fallback) {
  models::GemmShape g;
  g.m = m;
  g.n = n;
  g.k = k;
  g.in = g.out = t;
  g.warp_mma = g.unaligned_fallback = g.register_staged = g.exposed_epilogue = fallback;
  g.cluster_multicast = !fallback;
  return g;
}

// The first option's name on the built GPU with fp16 tensor cores as fast as its bf16 ones.
std::string plan_name(const wl::GemmOp& op) {
  const device::Device gpu(test::gpu_builder{}.tensor_tflops("fp16", 400).build());
  return models::plan_op(op, gpu).front().name;
}

double mainloop_us(const models::KernelPlan& k, const device::Device& gpu) {
  return k.pipe_flops / (gpu.pipe_rate(k.pipe, k.dtype) * k.pipe_efficiency);
}
}  // namespace

SCENARIO("fp16 align1 GEMMs of at most 185 MFLOP run the WMMA kernel's 32x32 tiles; bf16 never does") {
  // 2 x 509 x 509 x 357 = 184.98 MFLOP; k = 359: 186.02 MFLOP.
  CHECK(plan_name(gemm(509, 509, 357, DataType::fp16)) == "mma.sync gemm 32x32");
  CHECK(plan_name(gemm(509, 509, 359, DataType::fp16)).find("32x32") == std::string::npos);
  CHECK(plan_name(gemm(509, 509, 357, DataType::bf16)).find("32x32") == std::string::npos);
  // Aligned fp16 of the same size runs the tensor-core kernels.
  CHECK(plan_name(gemm(512, 512, 352, DataType::fp16)).find("mma.sync") == std::string::npos);
}

SCENARIO("an sm75 fallback block waits 1,000 cycles on each K step of 32 elements") {
  const device::Device gpu(test::gpu_builder{}.build());
  // k = 251: 8 K steps of 32. Unsplit (this small grid's fallback otherwise always splits K:
  // gemm_split_k_reduce_test.cpp), so the option is the whole K loop.
  auto unsplit = shape(251, 251, 251, DataType::bf16, true);
  unsplit.split_k = false;
  const auto staged = kernel(models::gemm_options(unsplit, gpu), "mma.sync gemm 64x64");
  auto no_wait = unsplit;
  no_wait.register_staged = false;
  const auto plain = kernel(models::gemm_options(no_wait, gpu), "mma.sync gemm 64x64");
  CHECK(staged.fixed_cycles - plain.fixed_cycles == Approx(8 * 1000));
  THEN("its two register-staged stages leave room for several 128-thread blocks per SM") {
    CHECK(staged.threads == 128);
    CHECK(staged.shared_bytes == Approx(2 * (64 + 64) * 32 * 2));
    CHECK(gpu.blocks_per_sm(staged.resources(), staged.name) > 1);
  }
}

SCENARIO("a SIMT GEMM's wave drains its output tiles through DRAM after the K loop") {
  const device::Device gpu(test::gpu_builder{}.build());
  auto g = shape(4096, 4096, 128, DataType::fp32, false);
  const auto hidden = kernel(models::gemm_options(g, gpu), "simt gemm 128x128");
  g.exposed_epilogue = true;
  const auto exposed = kernel(models::gemm_options(g, gpu), "simt gemm 128x128");
  const double concurrent =
      std::min(1024.0, gpu.blocks_per_sm(exposed.resources(), exposed.name) * double(gpu.sms()));
  THEN("each tile's time grows by the wave's output bytes over the DRAM rate") {
    CHECK(mainloop_us(exposed, gpu) ==
          Approx(mainloop_us(hidden, gpu) + concurrent * 128 * 128 * 4 / gpu.rates().dram));
  }
  THEN("one tile alone drains only its own output") {
    auto one = shape(128, 128, 128, DataType::fp32, false);
    const auto alone_hidden = kernel(models::gemm_options(one, gpu), "simt gemm 128x128");
    one.exposed_epilogue = true;
    const auto alone = kernel(models::gemm_options(one, gpu), "simt gemm 128x128");
    CHECK(mainloop_us(alone, gpu) ==
          Approx(mainloop_us(alone_hidden, gpu) + 128 * 128 * 4 / gpu.rates().dram));
  }
}
