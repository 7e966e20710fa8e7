// PyTorch's strided elementwise kernel (models/elementwise_model.cpp, kStridedInstructionsPerOperand):
// it computes and loads or stores every operand's element on its own, so its instructions follow
// the operands (inputs, broadcast inputs, outputs). A broadcast input (workloads/ops/elementwise.h,
// `broadcast_inputs`) costs an operand's instructions but no DRAM bytes; the vectorized kernel and
// a dynamic cast keep their own counts. A trace's smaller tensor argument of rank 1 or more is a
// broadcast input; a 0-dim one is a scalar argument.
#include <catch2/catch.hpp>

#include "models/elementwise_model.h"
#include "support/gpu_builder.h"
#include "workloads/trace/op_recognition.h"

using namespace gpucast;

namespace {
models::KernelPlan plan(int inputs, int broadcast, bool contiguous, DataType out = DataType::fp32) {
  const device::Device gpu = test::gpu_builder{}.build();
  wl::ElementwiseOp e;
  e.elements = 1 << 20;
  e.dtype = DataType::fp32;
  e.out_dtype = out;
  e.inputs = inputs;
  e.broadcast_inputs = broadcast;
  e.contiguous = contiguous;
  e.flops_per_element = 0;
  return models::ElementwiseModel{}.plan(wl::Op{e}, gpu).at(0).kernels.at(0);
}
double per_element(const models::KernelPlan& k, double elements_per_block) {
  return k.simt_instructions / elements_per_block;
}
}  // namespace

SCENARIO("a strided kernel's instructions follow its operands; a broadcast input adds one, not its bytes") {
  const double per_block = 128 * 2;       // 128 threads x 2 elements (the legacy kernel, fp32 output)
  const auto two = plan(1, 0, false);     // neg(x[..., 32:]): in, out
  const auto three = plan(1, 1, false);   // x * rstd: x, rstd (broadcast), out
  const auto binary = plan(2, 0, false);  // a + b strided: a, b, out
  CHECK(per_element(two, per_block) == Approx(2 * 34));
  CHECK(per_element(three, per_block) == Approx(3 * 34));
  CHECK(per_element(binary, per_block) == Approx(3 * 34));
  // The broadcast operand's bytes come from the L2: DRAM traffic is the full-size input's and the output's.
  CHECK(three.dram_bytes * three.blocks == Approx(two.dram_bytes * two.blocks));
  CHECK(binary.dram_bytes * binary.blocks > 1.4 * three.dram_bytes * three.blocks);
  // A dynamic cast (unrolled kernel) keeps the unrolled count whatever its operands.
  CHECK(per_element(plan(1, 0, false, DataType::bf16), 128 * 4) == Approx(90));
  // The vectorized kernel is not the strided one.
  CHECK(per_element(plan(1, 0, true), 128 * 4) < 10);
}

SCENARIO("the strided kernel unrolls 2 items per thread for a 4-byte output, 4 for a 2-byte one") {
  // launch_legacy_kernel<128, sizeof(output) >= 4 ? 2 : 4>: elementwise_kernel<128, 2> in the traces
  // for fp32 outputs, <128, 4> for bf16.
  auto strided = [](DataType dtype) {
    const device::Device gpu = test::gpu_builder{}.build();
    wl::ElementwiseOp e;
    e.elements = 1 << 20;
    e.dtype = dtype;
    e.out_dtype = dtype;
    e.inputs = 1;
    e.contiguous = false;
    e.flops_per_element = 0;
    return models::ElementwiseModel{}.plan(wl::Op{e}, gpu).at(0).kernels.at(0);
  };
  CHECK(strided(DataType::fp32).blocks == Approx((1 << 20) / (128 * 2)));
  CHECK(strided(DataType::bf16).blocks == Approx((1 << 20) / (128 * 4)));
  CHECK(strided(DataType::fp16).blocks == Approx((1 << 20) / (128 * 4)));
}

SCENARIO(
    "a trace's smaller tensor argument is a broadcast input of a strided kernel; a 0-dim one is a scalar") {
  auto arg = [](std::vector<std::int64_t> shape) {
    trace::OpInput in;
    in.type = "float";
    in.shapes = {std::move(shape)};
    return in;
  };
  trace::CpuOp op;
  op.name = "aten::mul";
  op.has_shapes = true;
  op.inputs = {arg({8, 1024, 768}), arg({8, 1024, 1})};
  const auto strided = trace::recognize_op(op, "void at::native::elementwise_kernel<128, 2, ...>");
  REQUIRE(strided);
  const auto& e = std::get<wl::ElementwiseOp>(*strided);
  CHECK((e.elements == 8 * 1024 * 768 && e.inputs == 1 && e.broadcast_inputs == 1 && !e.contiguous));
  // A 0-dim tensor (a wrapped scalar) is passed to the kernel, not loaded per element.
  op.inputs = {arg({8, 1024, 768}), arg({})};
  const auto scalar = trace::recognize_op(op, "void at::native::elementwise_kernel<128, 2, ...>");
  REQUIRE(scalar);
  CHECK(std::get<wl::ElementwiseOp>(*scalar).broadcast_inputs == 0);
  // The vectorized kernel took the op: no broadcast (and no strided cost) to count.
  op.inputs = {arg({8, 1024, 768}), arg({8, 1024, 768})};
  const auto vec = trace::recognize_op(op, "void at::native::vectorized_elementwise_kernel<4, ...>");
  REQUIRE(vec);
  CHECK((std::get<wl::ElementwiseOp>(*vec).inputs == 2 &&
         std::get<wl::ElementwiseOp>(*vec).broadcast_inputs == 0));
}
