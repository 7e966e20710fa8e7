// The L2 window a row pass's reread needs (models/row_models.cpp, kRereadRowsPerResidentBlock): the
// norms' second pass and the three-pass softmax's rereads hit the L2 only while four rows per
// resident block fit in it.
#include <catch2/catch.hpp>

#include "sim/op_predictor.h"
#include "support/gpu_builder.h"

using namespace gpucast;

SCENARIO("an RMS norm rereads its rows from DRAM once four rows per resident block outgrow the L2") {
  GIVEN("a one-wave RMS norm whose resident rows, four times over, just fill a 16 MB L2") {
    const device::Device big = test::gpu_builder{}.l2_mb(16).build();
    const device::Device small = test::gpu_builder{}.l2_mb(8).build();
    // vectorized_layer_norm_kernel: 128 threads, 48 registers a thread.
    const double resident = big.sms() * big.occupancy({128, 48, 0, 0}).blocks_per_sm;
    const auto cols = static_cast<wl::Count>(std::floor(big.l2_reuse_bytes() / (4 * resident * 4) / 4) * 4);
    REQUIRE(cols > 64);
    wl::RowOp r;
    r.kind = wl::RowOpKind::rmsnorm;
    r.rows = static_cast<wl::Count>(resident);
    r.cols = cols;
    r.dtype = DataType::fp32;
    const double io_bytes = 2.0 * r.rows * cols * 4;
    const double fits = sim::OpPredictor(big).rank_options(r).front().dram_bytes;
    const double half = sim::OpPredictor(small).rank_options(r).front().dram_bytes;
    THEN("with the window in the L2 each row is read once and written once") {
      CHECK(fits == Approx(io_bytes).epsilon(0.02));
    }
    THEN("with half that L2 (two rows per block would still fit) half of each row is reread from DRAM") {
      CHECK(half == Approx(1.25 * io_bytes).epsilon(0.02));
    }
  }
}
