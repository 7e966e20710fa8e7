// The dirty L2 lines along a workload (sim/l2_dirty_state.h): a kernel's reads evict the dirty
// lines before it as models/l2_writeback.h has them, its writes add their own, up to the share a
// flush leaves; a kernel finding fewer pays that share of its write-backs.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>

#include "device/device.h"
#include "sim/l2_dirty_state.h"
#include "sim/simulator.h"
#include "support/gpu_builder.h"
#include "workloads/workload_file.h"

using namespace gpucast;

namespace {
device::Device l2_gpu() {
  return device::Device(test::gpu_builder{}.l2_mb(50).build());
}
}  // namespace

SCENARIO("reads as large as the L2 leave 1/e of the dirty share; writes refill it, no further than full") {
  const device::Device gpu = l2_gpu();
  sim::DirtyL2 dirty(gpu);
  CHECK(dirty.share() == 1.0);
  dirty.after(gpu.l2_lines_bytes(), 0);
  CHECK(dirty.share() == Approx(std::exp(-1.0)));
  dirty.after(0, 0.1 * gpu.l2_dirty_bytes());
  CHECK(dirty.share() == Approx(std::exp(-1.0) + 0.1));
  dirty.after(0, 10 * gpu.l2_dirty_bytes());
  CHECK(dirty.share() == 1.0);
}

SCENARIO("a kernel that finds half the dirty lines pays half its write-backs") {
  sim::OpTiming t;
  t.exec_us = t.duration_us = 10;
  sim::KernelTiming k;
  k.exec_us = k.memory_us = 10;
  k.writeback_us = 4;
  t.kernels = {k};
  const auto half = sim::dirty_share_timing(t, 0.5);
  REQUIRE(half);
  CHECK(half->exec_us == Approx(8));
  CHECK(half->kernels[0].memory_us == Approx(8));
  CHECK(!sim::dirty_share_timing(t, 1.0));
}

SCENARIO("the second of two weight-streaming GEMMs finds the dirty lines the first wrote back") {
  // Each reads a 128 MB weight and writes 32 KB: after the first, almost no dirty line is left.
  const std::string g = "op = \"gemm\"\nm = 8\nn = 16384\nk = 4096\ndtype = \"bf16\"\n";
  const std::string text =
      "[workload]\n[[kernel]]\nname = \"first\"\n" + g + "[[kernel]]\nname = \"second\"\n" + g;
  sim::Simulator s(l2_gpu());
  const auto p = s.predict(wl::read_workload_text(text, "w.toml"));
  REQUIRE(p.kernels.size() == 2);
  const auto& first = *p.kernels[0].timing;
  const auto& second = *p.kernels[1].timing;
  double writeback = 0;
  for (const auto& k : first.kernels) writeback += k.writeback_us;
  REQUIRE(writeback > 0);
  CHECK(first.exec_us - second.exec_us == Approx(writeback).epsilon(0.1));
}
