// The strided kernel's instructions follow its OffsetCalculator (models/elementwise_model.cpp,
// strided_instructions): per index dimension one divmod and one multiply-add per operand, so a
// trace's index dimensions (ElementwiseOp::index_dims) and its operands set the count. Without the
// dimensions (index_dims = 0: generated workloads, shapes without strides) the count per operand
// fitted without them stands.
#include <catch2/catch.hpp>

#include "models/elementwise_model.h"
#include "support/gpu_builder.h"

using namespace gpucast;

namespace {
wl::ElementwiseOp strided(int index_dims, int inputs = 1, int broadcast = 0) {
  wl::ElementwiseOp e;
  e.elements = 1 << 20;
  e.dtype = DataType::bf16;
  e.out_dtype = DataType::bf16;
  e.inputs = inputs;
  e.broadcast_inputs = broadcast;
  e.flops_per_element = 0;
  e.contiguous = false;
  e.index_dims = index_dims;
  return e;
}
// Lane instructions per element of the op's one kernel (a block of 128 threads x 4 bf16 items).
double per_element(const wl::ElementwiseOp& e) {
  const device::Device gpu = test::gpu_builder{}.build();
  return models::ElementwiseModel{}.plan(wl::Op{e}, gpu).at(0).kernels.at(0).simt_instructions / 512;
}
}  // namespace

SCENARIO("the strided kernel's instructions follow its index dimensions and operands") {
  GIVEN("a copy (two operands) and a broadcast multiply (three)") {
    THEN("each index dimension adds a divmod (5) and a multiply-add per operand (4 each)") {
      CHECK(per_element(strided(3)) - per_element(strided(2)) == Approx(5 + 4 * 2));
      CHECK(per_element(strided(5, 1, 1)) - per_element(strided(4, 1, 1)) == Approx(5 + 4 * 3));
    }
    THEN("an operand adds its address and access (6) and its multiply-add per dimension") {
      CHECK(per_element(strided(2, 1, 1)) - per_element(strided(2)) == Approx(6 + 4 * 2));
      CHECK(per_element(strided(2)) == Approx(20 + 6 * 2 + 2 * (5 + 4 * 2)));
    }
    THEN("one known dimension already counts by the loop; none known keeps 34 per operand") {
      CHECK(per_element(strided(1)) == Approx(20 + 6 * 2 + 1 * (5 + 4 * 2)));
      CHECK(per_element(strided(0)) == Approx(34 * 2));
      CHECK(per_element(strided(0, 1, 1)) == Approx(34 * 3));
    }
  }
}
