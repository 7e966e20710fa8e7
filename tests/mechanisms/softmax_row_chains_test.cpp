// How long a softmax row keeps its kernel busy (models/row_models.cpp): softmax_warp_forward writes
// its row out one iteration after another over the real (not padded) row, and the three-pass
// cunn_SoftMaxForward pays a whole loop iteration for each element of the remainder that does not
// fill a block-wide stride of 16-byte vectors.
#include <catch2/catch.hpp>

#include "sim/op_predictor.h"
#include "support/gpu_builder.h"
#include "support/row_builder.h"

using namespace gpucast;

namespace {
double exec_us(wl::Count rows, wl::Count cols, DataType t) {
  const sim::OpPredictor p(test::gpu_builder{}.build());
  return p.rank_options(test::softmax_op(rows, cols, t)).front().exec_us;
}
}  // namespace

SCENARIO("a warp-softmax row's write-out follows its real iterations of 32 elements, not the padding") {
  GIVEN("one row, padded to 1,024 elements either way") {
    // 992 columns: 31 iterations; 993 and 1,024: 32.
    THEN("993 columns take one iteration longer than 992, and as long as 1,024") {
      CHECK(exec_us(1, 993, DataType::fp32) > exec_us(1, 992, DataType::fp32));
      CHECK(exec_us(1, 993, DataType::fp32) == Approx(exec_us(1, 1024, DataType::fp32)));
    }
  }
  GIVEN("one row padded to 2,048 elements") {
    THEN("2,048 columns take longer than 1,025 (64 iterations against 33)") {
      CHECK(exec_us(1, 2048, DataType::fp32) > exec_us(1, 1025, DataType::fp32) + 0.5);
    }
  }
}

SCENARIO("a three-pass softmax row one element short of whole vector strides runs its remainder scalar") {
  // bf16, 1,024 threads, 8 elements a vector: a stride is 8,192 elements. 40,960 columns are five
  // strides; 40,959 are four strides and 8,191 elements one per thread (eight more iterations).
  THEN("40,959 bf16 columns take longer than 40,960") {
    CHECK(exec_us(1, 40959, DataType::bf16) > exec_us(1, 40960, DataType::bf16));
  }
  THEN("49,152 (six whole strides) take about as long as 40,959") {
    CHECK(exec_us(1, 49152, DataType::bf16) == Approx(exec_us(1, 40959, DataType::bf16)).epsilon(0.15));
  }
}

SCENARIO("the three-pass kernel's rereads stay in the L2 only while four rows per resident block fit") {
  // 100 SMs, one 1,024-thread block each: every row of a one-wave grid is resident at once.
  const device::Device gpu = test::gpu_builder{}.l2_mb(16).build();
  const sim::OpPredictor p(gpu);
  const double row_bytes = 32768 * 4.0;  // fp32, 32,768 columns: the three-pass kernel
  const auto fitting_rows = static_cast<wl::Count>(gpu.l2_reuse_bytes() / (4 * row_bytes));
  REQUIRE(fitting_rows > 1);
  REQUIRE(2 * fitting_rows <= 100);
  auto dram_bytes = [&](wl::Count rows) {
    return p.rank_options(test::softmax_op(rows, 32768, DataType::fp32)).front().dram_bytes;
  };
  THEN("at four rows per block within the L2 the kernel reads each row once and writes it once") {
    CHECK(dram_bytes(fitting_rows) == Approx(2 * row_bytes * fitting_rows).epsilon(0.01));
  }
  THEN("twice those rows (two rows per block would still fit) reread part of each row from DRAM") {
    CHECK(dram_bytes(2 * fitting_rows) > 2.4 * row_bytes * 2 * fitting_rows);
  }
}
