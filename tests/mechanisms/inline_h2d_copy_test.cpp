// A small host-to-device copy travels inside the command stream (models/memory_op_models.cpp): up to
// the description's host.inline_copy_max_bytes it pays no copy-engine setup, only its bytes at the
// host link's rate; one byte more and it takes the copy engine (host.transfer_latency_us). A
// device-to-host copy takes the copy engine at every size, and a limit of 0 (AMD's architecture
// files) leaves no inline path.
#include <catch2/catch.hpp>

#include "models/memory_op_models.h"
#include "support/gpu_builder.h"

using namespace gpucast;

namespace {
models::KernelPlan copy_plan(double bytes, wl::CopyKind kind, const device::Device& gpu) {
  return models::CopyModel{}.plan(wl::Op{wl::CopyOp{bytes, kind}}, gpu).at(0).kernels.at(0);
}
}  // namespace

SCENARIO("a host-to-device copy at the inline limit skips the copy engine, one byte more takes it") {
  const device::Device gpu = test::gpu_builder{}
                                 .set("host.inline_copy_max_bytes", "1024")
                                 .set("host.transfer_latency_us", "4")
                                 .build();
  const double rate = gpu.host_link().rate;
  REQUIRE(gpu.host_link().inline_copy_max_bytes == 1024);
  const auto at_limit = copy_plan(1024, wl::CopyKind::h2d, gpu);
  CHECK(at_limit.name == "inline host->device copy (command stream)");
  CHECK(at_limit.extra_us == Approx(1024 / rate));
  const auto over = copy_plan(1025, wl::CopyKind::h2d, gpu);
  CHECK(over.name == "copy engine host->device");
  CHECK(over.extra_us == Approx(4 + 1025 / rate));
}

SCENARIO("a device-to-host copy takes the copy engine however small") {
  const device::Device gpu = test::gpu_builder{}
                                 .set("host.inline_copy_max_bytes", "1024")
                                 .set("host.transfer_latency_us", "4")
                                 .build();
  const auto k = copy_plan(64, wl::CopyKind::d2h, gpu);
  CHECK(k.name == "copy engine device->host");
  CHECK(k.extra_us == Approx(4 + 64 / gpu.host_link().rate));
}

SCENARIO("a description whose inline limit is 0 sends every copy to the copy engine") {
  const device::Device gpu =
      test::gpu_builder{}.set("host.inline_copy_max_bytes", "0").set("host.transfer_latency_us", "4").build();
  REQUIRE(gpu.host_link().inline_copy_max_bytes == 0);
  CHECK(copy_plan(1, wl::CopyKind::h2d, gpu).name == "copy engine host->device");
}
