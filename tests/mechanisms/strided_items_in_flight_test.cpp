// The strided kernel's loads in flight (models/elementwise_model.cpp, strided path): PyTorch's
// elementwise_kernel<128, vt> reads through untyped pointers, so an item's loads cannot move above
// the previous item's store: one element of each full-size input is in flight per thread, over one
// DRAM round trip per item. Broadcast inputs (small, L2-resident) add nothing in flight; the
// vectorized kernel keeps its own streaming depth.
#include <catch2/catch.hpp>

#include "models/elementwise_model.h"
#include "support/gpu_builder.h"

using namespace gpucast;

namespace {
wl::ElementwiseOp strided(DataType dtype, int inputs, int broadcast) {
  wl::ElementwiseOp e;
  e.elements = 1 << 24;
  e.dtype = e.out_dtype = dtype;
  e.inputs = inputs;
  e.broadcast_inputs = broadcast;
  e.contiguous = false;
  return e;
}
models::KernelPlan plan(const wl::ElementwiseOp& e) {
  const device::Device gpu = test::gpu_builder{}.build();
  return models::ElementwiseModel{}.plan(wl::Op{e}, gpu).at(0).kernels.at(0);
}
}  // namespace

SCENARIO(
    "a strided kernel keeps one element of each full-size input in flight per thread, one round per item") {
  const auto bf16 = plan(strided(DataType::bf16, 1, 0));
  CHECK(bf16.bytes_in_flight == Approx(bf16.threads * 2.0));
  CHECK(bf16.dram_rounds == 4);  // elementwise_kernel<128, 4> for a 16-bit output
  const auto two = plan(strided(DataType::bf16, 2, 0));
  CHECK(two.bytes_in_flight == Approx(two.threads * 2.0 * 2));
  // A broadcast operand adds no bytes in flight.
  const auto broadcast = plan(strided(DataType::bf16, 1, 1));
  CHECK(broadcast.bytes_in_flight == Approx(broadcast.threads * 2.0));
  const auto fp32 = plan(strided(DataType::fp32, 1, 0));
  CHECK(fp32.bytes_in_flight == Approx(fp32.threads * 4.0));
  CHECK(fp32.dram_rounds == 2);  // elementwise_kernel<128, 2> for a 4-byte output
  // A fill (no input) streams its stores as before.
  CHECK(plan(strided(DataType::bf16, 0, 0)).dram_rounds == 0);
}
