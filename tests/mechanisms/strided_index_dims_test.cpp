// PyTorch's strided elementwise kernel divides the linear index once per index dimension (its
// OffsetCalculator), the dimensions TensorIterator leaves after dropping size-1 ones and merging
// those every operand walks contiguously. A trace's recorded strides give that count
// (workloads/trace/op_recognition.cpp, ElementwiseOp::index_dims, the parameter
// validation/h100-sxm/strided.json's cases carry); the strided kernel's instruction count follows it
// (tests/mechanisms/elementwise_offset_calculator_test.cpp).
#include <catch2/catch.hpp>

#include "workloads/trace/op_recognition.h"

using namespace gpucast;

namespace {
trace::OpInput arg(std::vector<std::int64_t> shape, std::vector<std::int64_t> strides) {
  trace::OpInput in;
  in.type = "c10::BFloat16";
  in.shapes = {std::move(shape)};
  in.strides = {std::move(strides)};
  return in;
}
int dims_of(const std::string& name, std::vector<trace::OpInput> inputs) {
  trace::CpuOp op;
  op.name = name;
  op.has_shapes = true;
  op.inputs = std::move(inputs);
  const auto r = trace::recognize_op(op, "void at::native::elementwise_kernel<128, 4, ...>");
  REQUIRE(r);
  return std::get<wl::ElementwiseOp>(*r).index_dims;
}
}  // namespace

SCENARIO("a trace's strides give the strided kernel's index dimensions after TensorIterator merges them") {
  // RoPE's q * cos on a contiguous q [1, 16, 2048, 128], cos [1, 1, 2048, 128]: the batch of 1 drops,
  // sequence and head_dim merge for every operand, the heads stay (cos repeats over them): 2.
  CHECK(dims_of("aten::mul", {arg({1, 16, 2048, 128}, {4194304, 262144, 128, 1}),
                              arg({1, 1, 2048, 128}, {262144, 262144, 128, 1})}) == 2);
  // The same on q transposed from [1, 2048, 16, 128]: head_dim, heads and sequence stay apart: 3.
  CHECK(dims_of("aten::mul", {arg({1, 16, 2048, 128}, {4194304, 128, 2048, 1}),
                              arg({1, 1, 2048, 128}, {262144, 262144, 128, 1})}) == 3);
  // The attention output's permute copy ([8, 1024, 12, 64] from heads-first storage): 4.
  CHECK(dims_of("aten::copy_", {arg({8, 1024, 12, 64}, {786432, 768, 64, 1}),
                                arg({8, 1024, 12, 64}, {786432, 64, 65536, 1})}) == 4);
  // Without recorded strides the count is unknown.
  CHECK(dims_of("aten::mul", {arg({1, 16, 2048, 128}, {}), arg({1, 1, 2048, 128}, {})}) == 0);
}
