#pragma once
// How PyTorch launches a reduction over the contiguous last dimension (x.sum(dim=-1)), as ATen's
// setReduceConfig (aten/src/ATen/native/cuda/Reduce.cuh) chooses it from the shape. The choice is a
// strategy, one of three, and the numbers the kernel model needs (threads, grid, values per thread).
//
// - rows_per_block: short rows; each block of warps takes several rows (block_y rows, block_x threads
//   on each row), no cross-warp combine for a row.
// - block_per_row: the whole block reads one row (block_x * block_y threads on it), one block-wide
//   combine at the end; the grid has one block per row, so few rows leave most SMs idle.
// - row_across_blocks: rows so long that a thread would fold >= 256 values while the grid is small;
//   ctas_per_output blocks share each row, write partial sums to a global staging buffer, count in
//   on a semaphore (zeroed by a memset first) and the last block of each row combines the partials.
//
// Tensors of 2^31 bytes or more are reduced in several launches (TensorIterator splits them until
// 32-bit offsets suffice).
#include <cstdint>
#include <string_view>

namespace gpucast::models {

enum class ReduceStrategy { rows_per_block, block_per_row, row_across_blocks };
[[nodiscard]] std::string_view reduce_strategy_name(ReduceStrategy s);

// Library facts of ATen's Reduce.cuh (PyTorch 2.x; read from the source, confirmed by the kernels
// the profiler names in the H100/H200 validation runs: the memset + reduce_kernel pair appears
// exactly where the rule below says the row is split across blocks, and two reduce_kernel launches
// exactly where the tensor exceeds 2^31 bytes).
namespace reduce_library {
constexpr int kMaxThreads = 512;  // reduce_kernel<512, 1>: threads per block at most
// Vector loads along the row are 16 bytes: input_vec_size = 4 for fp32 (vt0) and 8 for 16-bit types
// (sum_functor in ReduceSumProdKernel.cu). Timing agrees: a single-row sum takes one DRAM round
// trip per 16 bytes a thread reads, fp32 or bf16.
constexpr double kVectorBytes = 16;
// Vectorize from rows of 128 elements: setReduceConfig tests dim0 >= 128 (PyTorch 2.11; older releases
// had dim0 > 128). The H100 profile agrees: a sum over 131072 x 128 bf16 launches 4,096 blocks of
// 16 x 32 threads, the vectorized shape (validation/runs/h100-sxm/short-rows/ncu-counts.csv).
constexpr int kVectorizeFromElements = 128;
// min_values_per_thread: a split leaves each thread at least this many values
constexpr int kMinValuesPerThread = 16;
// max_values_per_thread: at this many values per thread, the row is split across blocks
constexpr int kMaxValuesPerThread = 256;
constexpr int kBlockYValuesFactor = 16;          // the block's warps share a row when values >= block_y * 16
constexpr double kMaxIndexBytes = 2147483648.0;  // 2^31: TensorIterator's 32-bit indexing limit
}  // namespace reduce_library

struct ReduceLaunch {
  ReduceStrategy strategy = ReduceStrategy::rows_per_block;
  bool vectorized = false;       // 16-byte vector loads along the row
  double vector_elements = 1;    // elements per vector load
  int block_x = 1, block_y = 1;  // threads along a row, rows (or row slices) per block
  double rows_per_block = 1;     // outputs each block produces (1 unless rows_per_block strategy)
  double ctas_per_output = 1;    // blocks sharing one row
  double values_per_thread = 0;  // elements one thread folds (after every split)
  double grid = 1;               // blocks per launch
  double launches = 1;           // TensorIterator splits of tensors over 2^31 bytes
  [[nodiscard]] int threads() const { return block_x * block_y; }
};

// `max_threads_per_sm`, `sms` and `warp_size` are the device's (setReduceConfig reads them off the
// device to size the grid it aims for, sms * (max_threads_per_sm / threads), and caps a block's width
// at one warp).
[[nodiscard]] ReduceLaunch reduce_launch(std::int64_t rows, std::int64_t cols, double element_bytes, int sms,
                                         int max_threads_per_sm, int warp_size);

}  // namespace gpucast::models
