// The simulator's cost grows with the number of kernels, never with their threads or blocks.
#include <catch2/catch.hpp>

#include <chrono>

#include "sim/simulator.h"
#include "support/gpu_builder.h"

using namespace gpucast;

namespace {
// `n` elementwise kernels of distinct sizes (no cache hits), each `scale` times larger.
wl::Workload distinct_kernels(int n, double scale) {
  std::vector<wl::Kernel> kernels;
  for (int i = 0; i < n; ++i) {
    wl::Kernel k;
    k.name = "k" + std::to_string(i);
    k.op = wl::ElementwiseOp{wl::Count((1 << 16) + 64 * i) * wl::Count(scale), DataType::bf16, DataType::bf16, 2, 1, 1};
    kernels.push_back(std::move(k));
  }
  return wl::Workload::build("speed", wl::LaunchMode::graph, std::move(kernels));
}

double seconds_to_predict(const hw::GpuSpec& gpu, const wl::Workload& w) {
  const auto t0 = std::chrono::steady_clock::now();
  sim::Simulator s(gpu);
  const auto p = s.predict(w);
  REQUIRE(p.total_us > 0);
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}
}  // namespace

SCENARIO("a million times more thread blocks per kernel cost no more simulation time") {
  const auto gpu = test::gpu_builder{}.build();
  const double small = seconds_to_predict(gpu, distinct_kernels(3000, 1));
  const double huge = seconds_to_predict(gpu, distinct_kernels(3000, 1 << 20));
  // Generous bounds: the point is the absence of a per-block loop, which would take hours here.
  CHECK(huge < 5 * small + 0.2);
  CHECK(huge < 2.0);
}
