// A transposed input (models/elementwise_model.cpp, `transposed_inputs`): x.t().contiguous() reads
// its input a row apart across neighbouring threads, one 32-byte sector per element, so the L2
// serves far more than the tensor's bytes and a large transpose runs at the L2's rate, not DRAM's.
// A strided view that is not transposed (a slice, a broadcast) keeps the tensor's bytes.
#include <catch2/catch.hpp>

#include "models/elementwise_model.h"
#include "sim/op_predictor.h"
#include "support/gpu_builder.h"
#include "workloads/workload_file.h"

using namespace gpucast;

namespace {
wl::ElementwiseOp copy(long elements, int transposed) {
  wl::ElementwiseOp e;
  e.elements = elements;
  e.dtype = e.out_dtype = DataType::fp32;
  e.flops_per_element = 0;
  e.contiguous = false;
  e.transposed_inputs = transposed;
  return e;
}

std::string kernel(const std::string& extra) {
  return "[[kernel]]\nop = \"elementwise\"\nelements = 1000\ndtype = \"fp32\"\ninputs = 2\n" + extra;
}
}  // namespace

SCENARIO("a transposed input costs sector traffic in the L2; a strided view without a transpose does not") {
  const device::Device gpu = test::gpu_builder{}.build();
  const models::ElementwiseModel model;
  const double n = 1 << 20;
  auto l2_bytes = [&](int transposed) {
    const auto k = model.plan(wl::Op{copy(long(n), transposed)}, gpu).at(0).kernels.at(0);
    return k.l2_bytes * k.blocks;
  };
  auto dram_bytes = [&](int transposed) {
    const auto k = model.plan(wl::Op{copy(long(n), transposed)}, gpu).at(0).kernels.at(0);
    return k.dram_bytes * k.blocks;
  };
  // Read once from DRAM either way; through the L2, 4 bytes a strided element, 52 a transposed one.
  CHECK(dram_bytes(1) == Approx(dram_bytes(0)));
  CHECK(l2_bytes(0) == Approx(n * (4 + 4)));
  CHECK(l2_bytes(1) == Approx(n * (52 + 4)));
  // On a GPU whose SIMT issue is not the limit, the transpose runs at the L2's rate.
  const device::Device fast = test::gpu_builder{}.clock_mhz(20000).build();
  sim::OpPredictor p(fast);
  const auto& t = p.predict(wl::Op{copy(64L << 20, 1)});
  CHECK(t.kernels[0].memory_us > 0.9 * t.kernels[0].exec_us);
}

SCENARIO("transposed_inputs: at most the op's inputs, and it makes the op strided") {
  const auto w = wl::read_workload_text("[workload]\n" + kernel("transposed_inputs = 2\n"), "w.toml");
  const auto& e = std::get<wl::ElementwiseOp>(w.kernels()[0].op);
  CHECK(e.transposed_inputs == 2);
  CHECK_FALSE(e.contiguous);
  CHECK_THROWS_AS(wl::read_workload_text("[workload]\n" + kernel("transposed_inputs = 3\n"), "w.toml"),
                  InputError);
}
