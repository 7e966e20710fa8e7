// What softmax_warp_forward's lanes issue (models/row_models.cpp, counted by Nsight Compute): 42
// instructions a row a lane takes, 36 a real element, 18 a padded (-inf) slot, 2 more a 16-bit slot.
// A lane's share is the row over the lanes that hold it: 32, or 16 when the row pads to 16.
#include <catch2/catch.hpp>

#include "support/softmax_kernel.h"

using namespace gpucast;

namespace {
models::KernelPlan warp_softmax(wl::Count rows, wl::Count cols, DataType t) {
  auto k = test::softmax_kernel(rows, cols, t);
  REQUIRE(k.name == "softmax_warp_forward");
  return k;
}
// Instructions one warp issues for its row(s): a block holds four warps.
double per_warp(const models::KernelPlan& k) {
  return k.simt_instructions / 4 / 32;
}
}  // namespace

SCENARIO("a warp issues a row's setup, each real element and each padded slot at its own count") {
  THEN("512 fp32 columns, no padding: 42 + 36 x 16") {
    CHECK(per_warp(warp_softmax(4096, 512, DataType::fp32)) == Approx(42 + 36 * 16));
  }
  THEN("513 fp32 columns pad to 1,024: the 511 padded slots cost 18 each, a real element 36") {
    CHECK(per_warp(warp_softmax(4096, 513, DataType::fp32)) == Approx(42 + (36 * 513 + 18 * 511) / 32.0));
  }
  THEN("a 16-bit row adds 2 a slot, padded or not") {
    CHECK(per_warp(warp_softmax(4096, 513, DataType::bf16)) -
              per_warp(warp_softmax(4096, 513, DataType::fp32)) ==
          Approx(2 * 1024 / 32.0));
  }
}

SCENARIO("short rows: two rows a warp, and half-warps for rows padded to 16") {
  THEN("64 fp16 columns: two rows a warp, each 42 + 36 x 2 + 2 x 2 a lane") {
    CHECK(per_warp(warp_softmax(4096, 64, DataType::fp16)) == Approx(2 * (42 + 36 * 2 + 2 * 2)));
  }
  THEN("10 fp32 columns: a row on 16 lanes, four rows a warp") {
    const double lane_per_row = 42 + (36 * 10 + 18 * 6) / 16.0;
    CHECK(per_warp(warp_softmax(4096, 10, DataType::fp32)) == Approx(4 * 16 * lane_per_row / 32));
  }
}
