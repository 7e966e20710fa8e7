// softmax_warp_forward loads one element per lane per iteration (PersistentSoftmax.cuh): a 16-bit
// row reaches the memory system as half-line (64-byte) warp requests, which stream at a share of the
// full-line read rate, and a later wave's load round trip drains at that rate (models/row_models.cpp).
#include <catch2/catch.hpp>

#include "support/softmax_kernel.h"

using namespace gpucast;

SCENARIO("a 16-bit warp-softmax row is read as half-line requests at a share of the full-line rate") {
  GIVEN("rows of 1,000 columns, padded to 1,024") {
    const auto fp32 = test::softmax_kernel(16384, 1000, DataType::fp32);
    const auto bf16 = test::softmax_kernel(16384, 1000, DataType::bf16);
    const auto fp16 = test::softmax_kernel(16384, 1000, DataType::fp16);
    REQUIRE(bf16.name == "softmax_warp_forward");
    THEN("fp32 rows stream at the full rate, 16-bit rows at 65% of it") {
      CHECK(fp32.dram_read_efficiency == 1);
      CHECK(bf16.dram_read_efficiency == Approx(0.65));
      CHECK(fp16.dram_read_efficiency == Approx(0.65));
    }
    THEN("a 16-bit row's reads drain like 1/0.65 of its bytes: half the fp32 row's, over 0.65") {
      CHECK(bf16.bytes_in_flight == Approx(fp32.bytes_in_flight / 2 / 0.65));
    }
  }
}
