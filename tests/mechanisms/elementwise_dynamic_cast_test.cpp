// A dynamic cast (models/elementwise_model.cpp): PyTorch's unrolled kernel converts each element as it
// loads it, through a switch on the source type, so a thread's items load one after another. The
// kernel keeps one element per input and thread in flight and is bound by Little's law, not by its
// instructions: a cast (bf16 -> fp32) and a mixed-type map (an fp32 plus a bf16 input) alike; the
// narrowing copy (fp32 -> bf16, a typed vectorized kernel) keeps a 16-byte vector in flight.
#include <catch2/catch.hpp>

#include "models/elementwise_model.h"
#include "sim/op_predictor.h"
#include "support/gpu_builder.h"
#include "workloads/workload_file.h"

using namespace gpucast;

namespace {
wl::ElementwiseOp map(DataType in, DataType out, int inputs = 1) {
  wl::ElementwiseOp e;
  e.elements = 16L << 20;
  e.dtype = in;
  e.out_dtype = out;
  e.inputs = inputs;
  e.flops_per_element = 0;
  return e;
}
}  // namespace

SCENARIO("a cast keeps one element of each input per thread in flight, over four dependent round trips") {
  const device::Device gpu = test::gpu_builder{}.build();
  const models::ElementwiseModel model;
  const auto widening = model.plan(wl::Op{map(DataType::bf16, DataType::fp32)}, gpu).at(0).kernels.at(0);
  CHECK(widening.bytes_in_flight == Approx(128 * 2));
  CHECK(widening.dram_rounds == 4);
  const auto narrowing = model.plan(wl::Op{map(DataType::fp32, DataType::bf16)}, gpu).at(0).kernels.at(0);
  CHECK(narrowing.bytes_in_flight == Approx(narrowing.dram_bytes - narrowing.dram_write_bytes));
  WHEN("the inputs have different types") {
    auto residual = map(DataType::fp32, DataType::fp32, 2);
    const auto plain = model.plan(wl::Op{residual}, gpu).at(0).kernels.at(0);
    residual.mixed_types = true;
    const auto mixed = model.plan(wl::Op{residual}, gpu).at(0).kernels.at(0);
    THEN("it is a dynamic cast: two fp32 elements in flight per thread") {
      CHECK(mixed.bytes_in_flight == Approx(128 * 2 * 4));
      CHECK(mixed.dram_rounds == 4);
      CHECK(plain.bytes_in_flight > mixed.bytes_in_flight);
    }
  }
}

SCENARIO("a large cast is bound by its loads in flight, so a slower SM clock barely moves it") {
  // The H100 measurement (validation/h100-sxm/clocks.json): 54 us at 1,980 MHz, 58 us at 1,395 MHz.
  const device::Device fast = test::gpu_builder{}.clock_mhz(1980).build();
  const device::Device slow = test::gpu_builder{}.clock_mhz(1395).build();
  sim::OpPredictor pf(fast), ps(slow);
  const double t_fast = pf.predict(wl::Op{map(DataType::bf16, DataType::fp32)}).exec_us;
  const double t_slow = ps.predict(wl::Op{map(DataType::bf16, DataType::fp32)}).exec_us;
  // An issue-bound kernel would take 1,980 / 1,395 = 1.42 times as long.
  CHECK(t_slow / t_fast < 1.15);
}

SCENARIO("mixed_types is a boolean workload key") {
  const auto w = wl::read_workload_text(
      "[workload]\n[[kernel]]\nop = \"elementwise\"\nelements = 1000\ndtype = \"fp32\"\ninputs = "
      "2\nmixed_types = true\n",
      "w.toml");
  CHECK(std::get<wl::ElementwiseOp>(w.kernels()[0].op).mixed_types);
  CHECK_THROWS_AS(wl::read_workload_text("[workload]\n[[kernel]]\nop = \"elementwise\"\nelements = 1000\n"
                                         "dtype = \"fp32\"\nmixed_types = 3\n",
                                         "w.toml"),
                  InputError);
}
