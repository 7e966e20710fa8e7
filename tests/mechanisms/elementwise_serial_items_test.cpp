// A thread's items in series (models/elementwise_model.cpp, kSerialItemCycles): PyTorch's strided
// kernel and its dynamic cast handle a thread's four items one after another, each behind the
// chain before it (offsets, or the switch on the source type), so even a kernel too small to stream
// pays a fixed chain per item. The vectorized kernel and the transpose (its own rule) do not.
#include <catch2/catch.hpp>

#include "models/elementwise_model.h"
#include "support/gpu_builder.h"

using namespace gpucast;

namespace {
wl::ElementwiseOp tiny(bool contiguous, DataType out = DataType::bf16, int transposed = 0) {
  wl::ElementwiseOp e;
  e.elements = 2048;
  e.dtype = DataType::bf16;
  e.out_dtype = out;
  e.inputs = 1;
  e.contiguous = contiguous;
  e.transposed_inputs = transposed;
  return e;
}
double fixed_cycles(const wl::ElementwiseOp& e) {
  const device::Device gpu = test::gpu_builder{}.build();
  return models::ElementwiseModel{}.plan(wl::Op{e}, gpu).at(0).kernels.at(0).fixed_cycles;
}
}  // namespace

SCENARIO(
    "the strided kernel and the dynamic cast pay a fixed chain per item; the vectorized kernel does not") {
  const double vectorized = fixed_cycles(tiny(true));
  const double strided = fixed_cycles(tiny(false));
  const double cast = fixed_cycles(tiny(true, DataType::fp32));
  const double transposed = fixed_cycles(tiny(false, DataType::bf16, 1));
  // Four items per thread at 350 cycles each.
  CHECK(strided - vectorized == Approx(4 * 350));
  CHECK(cast - vectorized == Approx(4 * 350));
  CHECK(transposed == Approx(vectorized));
}
