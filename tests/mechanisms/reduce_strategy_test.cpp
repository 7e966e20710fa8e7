// How PyTorch launches x.sum(dim=-1) (models/reduce_strategy.h, ATen's setReduceConfig): each
// strategy switch pinned at its boundary. A GPU of 100 SMs with 2048 threads per SM aims for a grid
// of 100 * (2048 / 512) = 400 blocks of 512 threads.
#include <catch2/catch.hpp>

#include "models/reduce_strategy.h"
#include "sim/op_predictor.h"
#include "support/gpu_builder.h"

using namespace gpucast;
using models::ReduceStrategy;

namespace {
models::ReduceLaunch launch(wl::Count rows, wl::Count cols, double element_bytes = 4) {
  return models::reduce_launch(rows, cols, element_bytes, 100, 2048, 32);
}
}  // namespace

SCENARIO("a row is split across blocks once a thread would fold 256 values: 130,561 columns, not 130,560") {
  // One row: 512 threads on it; 130,560 / 512 = 255 values per thread, 130,561 needs 256.
  CHECK(launch(1, 130560).strategy == ReduceStrategy::block_per_row);
  const auto split = launch(1, 130561);
  CHECK(split.strategy == ReduceStrategy::row_across_blocks);
  // min(ceil(400 / 1), ceil(256 / 16)) = 16 blocks share the row, 16 values each.
  CHECK(split.ctas_per_output == 16);
  CHECK(split.values_per_thread == 16);
}

SCENARIO("the vector width does not move the split: values per thread count elements, fp32 or bf16") {
  CHECK(launch(1, 130561, 2).strategy == ReduceStrategy::row_across_blocks);
  CHECK(launch(1, 130560, 2).strategy == ReduceStrategy::block_per_row);
}

SCENARIO(
    "rows split across blocks only while the grid is no larger than the one aimed for: 400 rows, not 401") {
  CHECK(launch(400, 262144).strategy == ReduceStrategy::row_across_blocks);
  CHECK(launch(401, 262144).strategy == ReduceStrategy::block_per_row);
}

SCENARIO(
    "the block's warps share a row once each thread has 16 values per warp-row: 8,161 columns, not 8,160") {
  // Many rows: 32 threads across a row, 16 rows per block; ceil(8160 / 32) = 255 < 16 * 16 = 256.
  const auto short_rows = launch(4096, 8160);
  CHECK(short_rows.strategy == ReduceStrategy::rows_per_block);
  CHECK(short_rows.rows_per_block == 16);
  CHECK(short_rows.grid == 256);
  const auto long_rows = launch(4096, 8161);
  CHECK(long_rows.strategy == ReduceStrategy::block_per_row);
  CHECK(long_rows.grid == 4096);
}

SCENARIO("rows of 128 elements and more are read in 16-byte vectors") {
  CHECK_FALSE(launch(64, 127).vectorized);
  CHECK(launch(64, 128).vectorized);
  CHECK(launch(64, 129).vectorized);
  CHECK(launch(64, 129, 4).vector_elements == 4);
  CHECK(launch(64, 129, 2).vector_elements == 8);
}

SCENARIO("a tensor over 2^31 bytes is reduced in two launches") {
  CHECK(launch(524288, 1024).launches == 1);  // 2^29 fp32 elements: exactly 2^31 bytes
  CHECK(launch(524288, 1025).launches == 2);
}

SCENARIO("a split row's kernel follows a memset of its semaphores; a row per block launches one kernel") {
  const sim::OpPredictor p(test::gpu_builder{}.sms(100).build());
  wl::RowOp r;
  r.kind = wl::RowOpKind::reduce;
  r.dtype = DataType::fp32;
  r.rows = 1;
  r.cols = 130561;
  const auto split = p.rank_options(r).front();
  CHECK(split.option.find("row across blocks") != std::string::npos);
  CHECK(split.kernels.size() == 2);
  r.cols = 130560;
  const auto whole = p.rank_options(r).front();
  CHECK(whole.option.find("block per row") != std::string::npos);
  CHECK(whole.kernels.size() == 1);
}

SCENARIO("few rows leave SMs idle: 8 long rows take within 5% of 1, 200 rows (two per SM) longer") {
  const sim::OpPredictor p(test::gpu_builder{}.sms(100).build());
  auto time = [&](wl::Count rows) {
    wl::RowOp r;
    r.kind = wl::RowOpKind::reduce;
    r.dtype = DataType::bf16;
    r.rows = rows;
    r.cols = 65536;
    return p.rank_options(r).front().duration_us;
  };
  CHECK(time(8) == Approx(time(1)).epsilon(0.05));
  CHECK(time(200) > 1.2 * time(1));
}

SCENARIO(
    "the launches the H100 traces record: 8192 rows of 768 or 2048 fp32 in 512 blocks of 32 x 16, 2048 in "
    "128") {
  // trace-llama125m-train, trace-llama1b-train and trace-llama1b-prefill (validation/runs/h100-sxm):
  // reduce_kernel<512, 1> sum and mean over the hidden size, grid [512, 1, 1] or [128, 1, 1], block [32, 16,
  // 1].
  auto h100 = [](wl::Count rows, wl::Count cols) {
    return models::reduce_launch(rows, cols, 4, 132, 2048, 32);
  };
  for (const auto& l : {h100(8192, 768), h100(8192, 2048), h100(2048, 2048)}) {
    CHECK(l.strategy == ReduceStrategy::rows_per_block);
    CHECK(l.block_x == 32);
    CHECK(l.block_y == 16);
  }
  CHECK(h100(8192, 768).grid == 512);
  CHECK(h100(8192, 2048).grid == 512);
  CHECK(h100(2048, 2048).grid == 128);
}
