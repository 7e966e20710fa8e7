#include "models/backward_kernels.h"

#include <algorithm>
#include <cmath>

#include "models/helper_kernels.h"

namespace gpucast::models {
namespace {

// A block-wide reduction: warp shuffles, shared memory and two barriers (cycles); as row_models.cpp.
double block_reduce_cycles(double threads, const device::Device& gpu) {
  return 150 + 8 * (threads / gpu.warp_size()) + 5 * 25;
}

// The sort path of embedding_dense_backward launches about this many small kernels before the
// per-segment sums (index copy, two radix-sort passes, memsets, run-length encoding, segment
// offsets, partial sums): counted from the kernels the profiler lists on the H100 and H200 runs.
constexpr int kEmbeddingSortKernels = 12;
// 32-bit indexing limit of TensorIterator (2^31 bytes): larger tensors are split into launches.
constexpr double kMaxIndexBytes = 2147483648.0;

}  // namespace

int index_launches(double bytes) {
  int n = 1;
  while (bytes / n > kMaxIndexBytes && n < (1 << 20)) n *= 2;
  return n;
}

PlanOption norm_backward_plan(const wl::RowOp& r, const device::Device& gpu) {
  const double rows = static_cast<double>(r.rows);
  const double hidden = static_cast<double>(r.cols);
  const double e = bytes_per_element(r.dtype);
  const bool rms = r.kind == wl::RowOpKind::rmsnorm;
  const double row_bytes = hidden * e;
  // layer_norm_grad_input_kernel(_vectorized): one block per row reads dY and X (and gamma), reduces
  // two sums over the row, then rereads both rows (L2) and writes dX. The vectorized variant needs
  // the row length to be a multiple of its vector; odd rows take the scalar kernel.
  const double vec = std::fmod(hidden, 16 / e) == 0 ? 16 / e : 1;
  KernelPlan k;
  k.name = std::string("layer_norm_grad_input_kernel") + (vec > 1 ? "_vectorized" : "") + (rms ? " (rms)" : "");
  k.blocks = rows;
  k.threads = 128;
  k.registers = 48;
  k.dram_bytes = 3 * row_bytes + 8 + row_bytes / std::max(1.0, rows);  // dY, X, dX; stats; gamma once
  k.dram_write_bytes = row_bytes;
  k.l2_bytes = 5 * row_bytes;
  k.simt_instructions = (rms ? 14 : 20) * hidden;
  const double iterations = std::ceil(hidden / (vec * k.threads));
  k.dram_rounds = iterations;
  k.l2_rounds = iterations;
  k.bytes_in_flight = k.threads * 2 * vec * e;  // a vector of dY and of X per thread
  k.fixed_cycles = 2 * block_reduce_cycles(k.threads, gpu);
  // GammaBetaBackwardCUDAKernel: column sums over the rows of dY*xhat (and dY): every thread walks
  // a column slice down many rows, reading dY and X once more; dgamma (dbeta) written once.
  const double elements = rows * hidden;
  KernelPlan g = streaming_kernel("GammaBetaBackwardCUDAKernel", elements, 2 * elements * e + rows * 8,
                                  hidden * e * (rms ? 1 : 2), 8, gpu);
  // Column tiles of 32 (x 8 rows per step): few columns leave most SMs idle however many rows.
  const double column_tiles = std::ceil(hidden / 32);
  const double row_splits = std::max(1.0, std::min(std::ceil(rows / 64), std::floor(8.0 * gpu.sms() / column_tiles)));
  g.blocks = std::max(1.0, column_tiles * row_splits);
  g.threads = 256;
  const double per_block = elements / g.blocks;
  g.simt_instructions = 8 * per_block;
  g.dram_bytes = (2 * elements * e + rows * 8 + hidden * e * (rms ? 1 : 2)) / g.blocks;
  g.dram_write_bytes = hidden * e * (rms ? 1 : 2) / g.blocks;
  g.l2_bytes = g.dram_bytes;
  g.dram_rounds = std::ceil(per_block / (g.threads * 2));  // two rows in flight per thread
  g.bytes_in_flight = g.threads * 2 * 2 * e;
  return PlanOption{k.name + " + GammaBetaBackward", {k, g}, 0};
}

PlanOption embedding_backward_plan(const wl::EmbeddingOp& m, const device::Device& gpu) {
  const double e = bytes_per_element(m.dtype);
  const double tokens = static_cast<double>(m.tokens);
  const double dim = static_cast<double>(m.dim);
  const double table_bytes = static_cast<double>(m.vocab) * dim * e;
  PlanOption option{"embedding_dense_backward", {}, 0};
  // The gradient table starts as zeros: a fill kernel over the whole table, one launch per 2^31 bytes.
  const int fills = index_launches(table_bytes);
  for (int i = 0; i < fills; ++i) {
    KernelPlan z = streaming_kernel("fill (zero the weight gradient)", table_bytes / e / fills, 0, table_bytes / fills, 1, gpu);
    z.reads_dram = false;
    option.kernels.push_back(z);
  }
  const double grad_bytes = tokens * dim * e;
  if (tokens <= kEmbeddingDirectBackwardMaxIndices) {
    // embedding_backward_feature_kernel: each index's gradient row added into its table row.
    KernelPlan f = streaming_kernel("embedding_backward_feature_kernel", tokens * dim, grad_bytes + 8 * tokens + grad_bytes,
                                    grad_bytes, 6, gpu);
    f.dram_rounds = 2;  // the index, then its row
    option.kernels.push_back(f);
    option.name += " (direct)";
    return option;
  }
  for (int i = 0; i < kEmbeddingSortKernels; ++i) {
    KernelPlan s = streaming_kernel("sort indices / segments", tokens, 16 * tokens, 16 * tokens, 8, gpu);
    option.kernels.push_back(s);
  }
  // Per-segment partial sums of the gradient rows (fp32), then their sum written into the table rows.
  option.kernels.push_back(streaming_kernel("compute_grad_weight", tokens * dim, grad_bytes, tokens * dim * 4, 4, gpu));
  option.kernels.push_back(
      streaming_kernel("sum_and_scatter", tokens * dim, tokens * dim * 4 + 8 * tokens, grad_bytes, 4, gpu));
  option.name += " (sorted)";
  return option;
}

}  // namespace gpucast::models
