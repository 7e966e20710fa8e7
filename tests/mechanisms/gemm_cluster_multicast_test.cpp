// Which GEMM tiles multicast their A tile across a 2-CTA cluster (models/gemm_model.cpp): on Hopper,
// tensor-core tiles of at least 96 along both sides (cuBLAS's nvjet 96x128_..._2x1 and larger); each
// CTA then reads half of the A tile through the L2. A tile with a side under 96 loads its own.
#include <catch2/catch.hpp>

#include <string>

#include "device/device.h"
#include "models/gemm_model.h"
#include "support/gemm_builder.h"
#include "support/gpu_builder.h"

using namespace gpucast;

namespace {
// L2-to-SM bytes of one block of the option named `name` (no split-K: one kernel).
double l2_bytes(const std::string& name, const models::GemmShape& g, const device::Device& gpu) {
  for (const auto& o : models::gemm_options(g, gpu))
    if (o.name == name) return o.kernels.front().l2_bytes;
  FAIL("no option " << name);
  return 0;
}

}  // namespace

SCENARIO("a 96x128 tile, 96 along its narrow side, multicasts its A tile: each CTA reads half") {
  const device::Device gpu(test::gpu_builder{}.build());  // Hopper
  const auto g = test::gemm_shape(4096, 4096, 4096);
  const double out = 96.0 * 128 * 2;
  // (A/2 + B) x K x 2 bytes, plus the output tile.
  CHECK(l2_bytes("gemm 96x128", g, gpu) == Approx((48.0 + 128) * 4096 * 2 + out));
}

SCENARIO("a 128x64 tile, 64 along its narrow side, reads its whole A tile") {
  const device::Device gpu(test::gpu_builder{}.build());
  const auto g = test::gemm_shape(4096, 4096, 4096);
  const double out = 128.0 * 64 * 2;
  CHECK(l2_bytes("gemm 128x64", g, gpu) == Approx((128.0 + 64) * 4096 * 2 + out));
}

SCENARIO("an unaligned GEMM's mma.sync fallback never multicasts, even at 128x128") {
  const device::Device gpu(test::gpu_builder{}.build());
  auto g = test::gemm_shape(4096, 4096, 4096);
  g.warp_mma = true;
  g.unaligned_fallback = true;
  g.cluster_multicast = false;
  const double out = 128.0 * 128 * 2;
  CHECK(l2_bytes("mma.sync gemm 128x128", g, gpu) == Approx((128.0 + 128) * 4096 * 2 + out));
}
