// The board power limiter under tensor-core work (device/power_limiter.h): boost clock while matrix
// work is at most the knee share of the window, the measured full-duty clock at share 1, linear in
// between; a GEMM's rate follows the clock to the 0.5 power. A standalone op's share is its matrix
// work against do_bench's flush; a workload's is the step's (sim/simulator.cpp).
#include <catch2/catch.hpp>

#include <cmath>

#include "device/device.h"
#include "device/power_limiter.h"
#include "sim/op_predictor.h"
#include "sim/simulator.h"
#include "support/gemm_builder.h"
#include "support/gpu_builder.h"
#include "workloads/workload_file.h"

using namespace gpucast;

namespace {
// The H100 SXM's limiter (hardware/catalog/h100-sxm.toml).
const device::PowerLimiter kH100{1980, 1440, 0.43};

// The tidy test GPU (1,000 MHz boost) with a limiter that halves the clock at full duty.
hw::GpuSpec limited_gpu() {
  return test::gpu_builder{}
      .set("power.matrix_clock_mhz", "500.0")
      .set("power.matrix_knee_share", "0.4")
      .build();
}

wl::GemmOp gemm4096() {
  return test::gemm_builder{}.square(4096).build();
}

std::string gemm_kernel(int i) {
  return "[[kernel]]\nname = \"gemm" + std::to_string(i) +
         "\"\nop = \"gemm\"\nm = 4096\nn = 4096\nk = 4096\ndtype = \"bf16\"\n";
}
// 64M fp32 elements: 512 MB through DRAM, about 1.5 times the GEMM's time on the test GPU.
std::string cast_kernel(int i) {
  return "[[kernel]]\nname = \"cast" + std::to_string(i) +
         "\"\nop = \"elementwise\"\nelements = 67108864\ndtype = \"fp32\"\n";
}

double first_gemm_exec_us(const std::string& kernels) {
  sim::Simulator s(limited_gpu());
  const auto p = s.predict(wl::read_workload_text("[workload]\n" + kernels, "w.toml"));
  return p.kernels[0].timing->exec_us;
}
}  // namespace

SCENARIO("the limiter holds the boost clock up to its knee share and the full-duty clock at share 1") {
  CHECK(device::limited_clock_mhz(kH100, 1.0) == Approx(1440));
  CHECK(device::limited_clock_mhz(kH100, 0.43) == Approx(1980));
  CHECK(device::limited_clock_mhz(kH100, 0.0) == Approx(1980));
  CHECK(device::limited_clock_mhz(kH100, 0.44) < 1980);
  CHECK(device::limited_clock_mhz(kH100, 1.5) == Approx(1440));  // a share is at most 1
}

SCENARIO("between the knee and full duty the clock falls linearly and never rises") {
  CHECK(device::limited_clock_mhz(kH100, 0.715) == Approx(0.5 * (1980 + 1440)));
  double previous = device::limited_clock_mhz(kH100, 0.43);
  for (int i = 44; i <= 100; ++i) {
    const double clock = device::limited_clock_mhz(kH100, i / 100.0);
    CHECK(clock < previous);
    previous = clock;
  }
}

SCENARIO("matrix work runs at the clock ratio to the 0.5 power; without a limiter at the fitted rate") {
  CHECK(device::matrix_clock_factor(kH100, 1.0) == Approx(1));
  CHECK(device::matrix_clock_factor(kH100, 0.43) == Approx(std::sqrt(1980.0 / 1440.0)));
  CHECK(device::matrix_clock_factor(std::nullopt, 0.1) == Approx(1));
  const device::Device plain = test::gpu_builder{}.build();
  CHECK_FALSE(plain.power_limiter());
  CHECK(plain.at_matrix_share(0.1).matrix_clock_factor() == Approx(1));
}

SCENARIO("a standalone GEMM under do_bench runs between its full-duty and its boost time") {
  const device::Device gpu = limited_gpu();
  const double standalone = sim::OpPredictor(gpu).predict(gemm4096()).exec_us;
  const double full_duty = sim::OpPredictor(gpu.at_matrix_share(1)).predict(gemm4096()).exec_us;
  const double boost = sim::OpPredictor(gpu.at_matrix_share(0)).predict(gemm4096()).exec_us;
  CHECK(standalone < full_duty);
  CHECK(standalone > boost);
}

SCENARIO("a GEMM in a GEMM-only chain takes longer than the same GEMM between memory-bound kernels") {
  const double chain = first_gemm_exec_us(gemm_kernel(0) + gemm_kernel(1) + gemm_kernel(2) + gemm_kernel(3));
  const double interleaved =
      first_gemm_exec_us(gemm_kernel(0) + cast_kernel(0) + gemm_kernel(1) + cast_kernel(1));
  // (1.19 times: the part of each cooperative tile that waits on its DRAM store does not follow the
  // clock, models/gemm_model.cpp kCoopStoreExposedShare.)
  CHECK(chain > 1.15 * interleaved);
  // The chain is almost all matrix work: near the full-duty time (its tensor cores idle in the last
  // wave's tail and between launches, so its share is a little under 1).
  const device::Device gpu = limited_gpu();
  CHECK(chain == Approx(sim::OpPredictor(gpu.at_matrix_share(1)).predict(gemm4096()).exec_us).epsilon(0.05));
}
