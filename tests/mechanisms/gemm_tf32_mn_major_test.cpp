// Hopper's wgmma reads tf32 operands K-major only: a product whose A is stored transposed (A M-major
// and B N-major) runs at kTf32BothMnMajorEfficiency of the tensor rate (models/gemm_model.cpp); the
// other layouts, 16-bit types and GPUs before Hopper keep the full rate.
#include <catch2/catch.hpp>

#include <string>

#include "device/device.h"
#include "models/op_model.h"
#include "support/gemm_builder.h"
#include "support/gpu_builder.h"

using namespace gpucast;

namespace {
hw::GpuSpec gpu_spec(const std::string& cc = "\"9.0\"") {
  return test::gpu_builder{}.tensor_tflops("tf32", 400).set("compute_capability", cc).build();
}

// The tensor-rate share of one tile shape's kernel (the fastest tile may differ between layouts).
double rate(const wl::GemmOp& g, const device::Device& gpu) {
  for (const auto& o : models::plan_op(g, gpu))
    if (o.name == "gemm 128x128" || o.name == "mma.sync gemm 128x128")
      return o.kernels.front().pipe_efficiency;
  FAIL("no 128x128 option");
  return 0;
}

wl::GemmOp tf32(bool ta, bool tb, DataType t = DataType::tf32) {
  return test::gemm_builder{}.square(4096).dtype(t).transpose_a(ta).transpose_b(tb).build();
}
}  // namespace

SCENARIO("tf32 with both operands MN-major (A stored transposed) runs at 0.75 of the rate") {
  const device::Device hopper(gpu_spec());
  const double row_major = rate(tf32(false, false), hopper);
  CHECK(rate(tf32(true, false), hopper) == Approx(0.75 * row_major));
  THEN("one MN-major operand, or none, keeps the rate") {
    CHECK(rate(tf32(false, true), hopper) == Approx(row_major));
    CHECK(rate(tf32(true, true), hopper) == Approx(row_major));
  }
  THEN("16-bit operands transpose in the instruction: bf16 keeps its rate") {
    CHECK(rate(tf32(true, false, DataType::bf16), hopper) ==
          Approx(rate(tf32(false, false, DataType::bf16), hopper)));
  }
  THEN("before Hopper (mma.sync, no wgmma) the layout costs nothing") {
    const device::Device ampere(gpu_spec("\"8.0\""));
    CHECK(rate(tf32(true, false), ampere) == Approx(rate(tf32(false, false), ampere)));
  }
}
