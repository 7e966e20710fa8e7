// Autocast casts each weight once and caches it (sim/warm_l2.cpp, cast_after_same_cast): a cast
// after a cast between the same two types reads another tensor of the same size, never a warm one.
// A cast still finds warm what a recent kernel of another kind read or what the previous kernel
// wrote.
#include <catch2/catch.hpp>

#include "sim/warm_l2.h"
#include "support/gpu_builder.h"

using namespace gpucast;

namespace {
device::Device l2_gpu() {
  return test::gpu_builder{}.l2_mb(10).set("cache.l2_reuse_fraction", "0.5").build();
}
wl::ElementwiseOp cast(long elements, DataType from, DataType to) {
  wl::ElementwiseOp e;
  e.elements = elements;
  e.dtype = from;
  e.out_dtype = to;
  return e;
}
}  // namespace

SCENARIO("a weight cast after a cast of another weight of the same size and types is cold") {
  const device::Device gpu = l2_gpu();
  const wl::Op k_weight{cast(1000, DataType::fp32, DataType::bf16)};
  const wl::Op v_weight{cast(1000, DataType::fp32, DataType::bf16)};
  CHECK(sim::warm_input(v_weight, 6000, {{&k_weight, 6000}}, gpu).read_bytes == 0);
}

SCENARIO("a cast after a cast between other types, or after a pointwise read, may be warm") {
  const device::Device gpu = l2_gpu();
  const wl::Op consumer{cast(1000, DataType::fp32, DataType::bf16)};
  const wl::Op other_cast{cast(1000, DataType::fp32, DataType::fp16)};
  const wl::Op pointwise{cast(1000, DataType::fp32, DataType::fp32)};  // same type in and out: no cast
  const wl::Op between{cast(7, DataType::fp32, DataType::fp32)};
  CHECK(sim::warm_input(consumer, 6000, {{&other_cast, 6000}, {&between, 56}}, gpu).read_bytes == 4000);
  CHECK(sim::warm_input(consumer, 6000, {{&pointwise, 8000}, {&between, 56}}, gpu).read_bytes == 4000);
}

SCENARIO("a cast of what the previous cast wrote is warm") {
  const device::Device gpu = l2_gpu();
  const wl::Op to_fp32{cast(1000, DataType::bf16, DataType::fp32)};  // writes 1,000 fp32 elements
  const wl::Op back{cast(1000, DataType::fp32, DataType::bf16)};
  CHECK(sim::warm_input(back, 6000, {{&to_fp32, 6000}}, gpu).read_bytes == 4000);
}
