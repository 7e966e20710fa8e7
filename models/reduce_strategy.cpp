#include "models/reduce_strategy.h"

#include <algorithm>
#include <cmath>

namespace gpucast::models {
namespace {

std::int64_t last_pow2(std::int64_t v) {
  std::int64_t p = 1;
  while (p * 2 <= v) p *= 2;
  return p;
}
std::int64_t div_up(std::int64_t a, std::int64_t b) {
  return (a + b - 1) / b;
}

}  // namespace

std::string_view reduce_strategy_name(ReduceStrategy s) {
  switch (s) {
    case ReduceStrategy::rows_per_block:
      return "rows per block";
    case ReduceStrategy::block_per_row:
      return "block per row";
    default:
      return "row across blocks";
  }
}

ReduceLaunch reduce_launch(std::int64_t rows, std::int64_t cols, double element_bytes, int sms,
                           int max_threads_per_sm, int warp_size) {
  namespace L = reduce_library;
  ReduceLaunch out;
  rows = std::max<std::int64_t>(1, rows);
  cols = std::max<std::int64_t>(1, cols);
  // TensorIterator halves a tensor whose byte offsets overflow 32 bits until every piece fits; each
  // piece is its own launch over the same shape halved along its larger dimension.
  const double bytes = double(rows) * double(cols) * element_bytes;
  while (bytes / out.launches > L::kMaxIndexBytes) out.launches *= 2;
  if (out.launches > 1) {
    if (cols >= rows)
      cols = std::max<std::int64_t>(1, std::int64_t(std::ceil(double(cols) / out.launches)));
    else
      rows = std::max<std::int64_t>(1, std::int64_t(std::ceil(double(rows) / out.launches)));
  }

  // setReduceConfig, reduction along the fastest-moving dimension: dim0 = the row, dim1 = the rows.
  std::int64_t dim0 = cols;
  const std::int64_t dim1 = rows;
  if (dim0 >= L::kVectorizeFromElements) {  // "vectorize along input" (dim0 >= 128 elements)
    out.vectorized = true;
    out.vector_elements = std::max(1.0, std::floor(L::kVectorBytes / element_bytes));
    dim0 /= std::int64_t(out.vector_elements);
  }
  const std::int64_t dim0_pow2 = dim0 < L::kMaxThreads ? last_pow2(dim0) : L::kMaxThreads;
  const std::int64_t dim1_pow2 = dim1 < L::kMaxThreads ? last_pow2(dim1) : L::kMaxThreads;
  std::int64_t bw = std::min(dim0_pow2, std::int64_t(warp_size));
  const std::int64_t bh = std::min(dim1_pow2, L::kMaxThreads / bw);
  bw = std::min(dim0_pow2, L::kMaxThreads / bh);
  out.block_x = int(bw);
  out.block_y = int(bh);
  // values_per_thread() counts elements of the row (num_inputs), whatever the vector width.
  std::int64_t step_input = bw;
  if (div_up(cols, step_input) >= bh * L::kBlockYValuesFactor ||
      div_up(cols, step_input) >= L::kMaxValuesPerThread) {
    step_input *= bh;  // the block's warps split the row: one row per block
    out.rows_per_block = 1;
    out.strategy = ReduceStrategy::block_per_row;
  } else {
    out.rows_per_block = double(bh);  // each warp-row of the block takes its own row
    out.strategy = ReduceStrategy::rows_per_block;
  }
  std::int64_t values = div_up(cols, step_input);
  const std::int64_t grid = div_up(rows, std::int64_t(out.rows_per_block));
  const std::int64_t threads = bw * bh;
  const std::int64_t target_grid =
      std::int64_t(sms) * std::max<std::int64_t>(1, max_threads_per_sm / threads);
  std::int64_t ctas = 1;
  if (out.strategy == ReduceStrategy::block_per_row && values >= L::kMaxValuesPerThread &&
      grid <= target_grid) {
    const std::int64_t by_grid = div_up(target_grid, grid);
    const std::int64_t by_min_work = div_up(values, L::kMinValuesPerThread);
    const std::int64_t by_max_work = div_up(values, L::kMaxValuesPerThread);
    ctas = std::max(std::min(by_grid, by_min_work), by_max_work);
    if (ctas > 1) {
      out.strategy = ReduceStrategy::row_across_blocks;
      values = div_up(cols, step_input * ctas);
    }
  }
  out.ctas_per_output = double(ctas);
  out.values_per_thread = double(values);
  out.grid = double(grid * ctas);
  return out;
}

}  // namespace gpucast::models
