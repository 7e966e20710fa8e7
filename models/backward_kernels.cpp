#include "models/backward_kernels.h"

#include <algorithm>
#include <cmath>

#include "models/embedding_segments.h"
#include "models/helper_kernels.h"

namespace gpucast::models {
namespace {

// The sort path of embedding_dense_backward launches this many kernels before the two per-segment
// sums: an arange of the indices, the radix sort's histogram, scan and eight one-sweep passes with
// their memsets, the unique-by-key and the segment offsets (29 of the 31 kernels the profiler lists
// on the H100 and H200 runs). The host issues them one by one, and it reads the segment counts back
// twice (.item()); the model spreads that host time over the launches (host_between_launches), the
// two readbacks' waits for the GPU not modelled as barriers.
constexpr int kEmbeddingSortKernels = 28;
constexpr int kEmbeddingSortHostSyncs = 2;
// Of those, the arange, the sort's two memsets, histogram and exclusive sum and its eight one-sweep
// passes with their memsets come before the weight gradient's zero fill (the profiled order).
constexpr int kEmbeddingSortKernelsBeforeFill = 21;
// The radix sort sorts all 64 bits of the int64 indices: eight DeviceRadixSortOnesweepKernel passes
// of 8 bits, each after a memset, following one DeviceRadixSortHistogramKernel and an exclusive sum
// (cub's onesweep radix sort; library fact from the profiled kernel names). Its kernels, positions in
// the sequence: arange 0, memsets 1-2, histogram 3, exclusive sum 4, then memset and pass pairs 5-20;
// after the fill: compact init 21, unique-by-key 22, partials per segment 23, scan init 24, scan 25,
// the partial-segment count 26 and offsets 27.
constexpr int kRadixSortPasses = 8;
constexpr int kRadixFirstPass = 6;  // a pass every second kernel from here
constexpr int kRadixHistogram = 3;
constexpr int kUniqueByKey = 22;
constexpr int kSegmentScan = 25;
// A one-sweep pass over a few thousand to 65,536 keys is latency-bound, not byte-bound: its tiles rank
// their 8-bit digits through shared memory and wait for each other's digit prefixes (decoupled
// look-back) before scattering. The histogram, the unique-by-key and the scan are single sweeps
// with a look-back or a block-wide reduction. Fixed cycles beyond the streaming kernel's, fit on the
// profiled durations of the dev split (H100 and H200) and the H100 tuning sets: 5.6-9.2 us per pass,
// 3.0-3.7 us histogram, 4.4-5.2 us unique-by-key, 2.5-3.2 us scan, at 4,096-65,536 indices.
constexpr double kRadixPassCycles = 10000;
constexpr double kSortSweepCycles = 4500;
// GammaBetaBackwardCUDAKernelTemplate<T, T_ACC, 32, block_dim_y, rows_per_block_y, ...>: a block of
// 32 columns by block_dim_y threads walks every row, 8 rows per thread an iteration (rows_per_block_y =
// 8 x block_dim_y); block_dim_y is 1 below 64 rows, 8 below 128, 16 below 256, else 32
// (LaunchGammaBetaBackwardCUDAKernel, aten/src/ATen/native/cuda/layer_norm_kernel.cu; library fact:
// the profiles show <32, 1, 8> at 1 and 7 rows, <32, 8, 64> at 100, <32, 32, 256> from 1,000 rows).
constexpr double kGammaBetaColumns = 32;
constexpr double kGammaBetaRowsPerThread = 8;
constexpr double kGammaBetaFewRows = 64;
constexpr double kGammaBetaSomeRows = 128;
constexpr double kGammaBetaManyRows = 256;
// Each iteration loads its rows' mean and rstd (a lane each, shuffled to the warp after a __syncwarp),
// then the rows of dY and X: two dependent round trips (dev: the weight gradient of 64-320 columns,
// two blocks to ten, grows by about 0.7 us per iteration of 256 rows on the H100, two DRAM latencies).
constexpr double kGammaBetaRoundsPerIteration = 2;
// Many rows over few columns (M > 64 x 1,024 and N / 32 below half the SMs) split the rows across
// blocks instead: GammaBetaBackwardCUDAKernelTemplate<T, T_ACC, 32, 1, 32, partial_reduction>, one
// warp per block walking 32 rows a step, blockIdx.y striding over the rows with gridDim.y =
// min(32,768 / gridDim.x, ceil(M / 32)); each block writes its column partials to a
// [gridDim.y, N] tensor, which dgamma_blocks.sum(0) (and dbeta's) reduce in their own launches
// (LaunchGammaBetaBackwardCUDAKernel, layer_norm_kernel.cu; library fact).
constexpr double kGammaBetaSplitMinRows = 64 * 1024;
constexpr double kGammaBetaSplitRowsPerBlock = 32;
constexpr double kGammaBetaSplitMaxBlocks = 32 * 1024;
// The split kernel keeps a thread's 32 rows of dY and X in fp32 registers (assumption: 96 per
// thread), and the sum(0) over the partials costs about 3 lane instructions per partial element
// (a load's share, the add; assumption).
constexpr int kGammaBetaSplitRegisters = 96;
constexpr double kPartialSumInstructionsPerElement = 3;
// 32-bit indexing limit of TensorIterator (2^31 bytes): larger tensors are split into launches.
constexpr double kMaxIndexBytes = 2147483648.0;
// A bound on those splits, so that a non-finite or absurd size cannot loop forever (assumption).
constexpr int kMaxIndexLaunches = 1 << 20;
// layer_norm_grad_input_kernel(_vectorized): 128 threads, about 48 registers per thread (library
// launch; registers an assumption); the scalar kernel's loop is unrolled four deep
// (layer_norm_kernel.cu; library fact).
constexpr int kGradInputThreads = 128;
constexpr int kGradInputRegisters = 48;
constexpr double kGradInputScalarUnroll = 4;
// layer_norm_grad_input_kernel_vectorized loads vec_size = 4 elements a step whatever the dtype (so
// 8-byte vectors for 16-bit rows), and runs only where the row length is a multiple of it
// (layer_norm_kernel.cu: `constexpr int vec_size = 4`, bVectorSizeMultiple; library fact).
constexpr double kGradInputVectorElements = 4;
// A warp whose instructions depend on each other issues about one every other cycle (the kernel
// timer's kWarpIssueFraction, sim/kernel_timer.cpp; assumption).
constexpr double kDependentIssuePerCycle = 0.5;
// Share of the L2 the resident rows' dY and X may fill before the second pass over them misses (dev,
// both GPUs: 21.6 MB of rows in flight (65536 x 4099 fp16) misses on the H100's 50 MB and on the
// H200's 60 MB (0.36 of it: rereads at five row-bytes per row on both), 27 MB (16384 x 5120 bf16)
// misses; 13 MB (100 x 16384 fp32, 0.26 of the H100's L2) and 1.7 MB (16384 x 320 bf16) hit; 0.3 is
// the middle of what dev leaves open).
constexpr double kRereadL2Share = 0.3;
// Lane instructions per element of the input gradient: layer norm, RMS norm (assumption).
constexpr double kGradInputInstructionsPerElement = 20;
constexpr double kRmsGradInputInstructionsPerElement = 14;
// GammaBetaBackwardCUDAKernel: registers per thread and lane instructions per element (assumption).
constexpr int kGammaBetaRegisters = 64;
constexpr double kGammaBetaInstructionsPerElement = 8;
// embedding_backward_feature_kernel: a warp-wide slice of features per block, 32 rows of the batch
// (BLOCKDIMY) per step (Embedding.cu; library fact), 8 lane instructions per element (assumption).
constexpr double kFeatureKernelRowsPerStep = 32;
constexpr double kFeatureKernelInstructionsPerElement = 8;
// embedding_backward_feature_kernel's registers per thread (assumption).
constexpr int kFeatureKernelRegisters = 32;
// The sort path's kernels (radix sort passes, scans, unique): each reads and writes a 16-byte key-value
// pair per index at about 8 lane instructions (assumption).
constexpr double kSortBytesPerIndex = 16;
constexpr double kSortInstructionsPerIndex = 8;
// The zero fill of the weight gradient: about one lane instruction (the store) per element
// (assumption).
constexpr double kFillInstructionsPerElement = 1;

// The weight gradient of many rows over few columns: the rows split across blocks that write column
// partials, then a sum over the partials per gradient (kGammaBetaSplitMinRows). `k` is the
// input-gradient kernel that runs first; `dram_read_share` the share of dY and X the L2 no longer
// holds after it.
PlanOption norm_backward_split_rows(const wl::RowOp& r, const device::Device& gpu, const KernelPlan& k,
                                    double column_blocks, double dram_read_share) {
  const double rows = static_cast<double>(r.rows);
  const double hidden = static_cast<double>(r.cols);
  const double e = bytes_per_element(r.dtype);
  const bool rms = r.kind == wl::RowOpKind::rmsnorm;
  const double gradients = rms ? 1 : 2;  // dgamma (and dbeta)
  const double row_steps = std::ceil(rows / kGammaBetaSplitRowsPerBlock);
  const double row_blocks = std::min(std::floor(kGammaBetaSplitMaxBlocks / column_blocks), row_steps);
  KernelPlan g;
  g.name = "GammaBetaBackwardCUDAKernel<32, 1, 32> (partial)";
  g.blocks = column_blocks * row_blocks;
  g.threads = static_cast<int>(kGammaBetaColumns);
  g.registers = kGammaBetaSplitRegisters;
  const double elements = rows * hidden;
  g.simt_instructions = kGammaBetaInstructionsPerElement * elements / g.blocks;
  const double partial_bytes = gradients * row_blocks * hidden * e;
  g.dram_write_bytes = partial_bytes / g.blocks;
  g.dram_bytes = g.dram_write_bytes + (2 * elements * e + rows * kRowStatsBytes) * dram_read_share / g.blocks;
  g.l2_bytes = (2 * elements * e + rows * kRowStatsBytes + partial_bytes) / g.blocks;
  // A block's steps: the rows' stats, then its 32 rows of dY and X, one round trip each.
  g.dram_rounds = kGammaBetaRoundsPerIteration * std::ceil(row_steps / row_blocks);
  g.bytes_in_flight = g.threads * 2 * e * kGammaBetaSplitRowsPerBlock / kGammaBetaRoundsPerIteration;
  PlanOption option{k.name + " + GammaBetaBackward (rows split) + sum", {k, g}, 0};
  for (int i = 0; i < static_cast<int>(gradients); ++i) {
    KernelPlan sum = streaming_kernel("sum(0) of the partial weight gradients", row_blocks * hidden,
                                      row_blocks * hidden * e, hidden * e, kPartialSumInstructionsPerElement, gpu);
    // The partials were just written: while they fit the L2's reuse share the sum reads them there.
    if (gpu.fits_in_l2(partial_bytes)) {
      sum.dram_bytes = sum.dram_write_bytes;
      sum.dram_rounds = 0;
      sum.l2_rounds = 1;
    }
    option.kernels.push_back(sum);
  }
  return option;
}

}  // namespace

int index_launches(double bytes) {
  int n = 1;
  while (bytes / n > kMaxIndexBytes && n < kMaxIndexLaunches) n *= 2;
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
  // the row length to be a multiple of its 4-element vector; other rows take the scalar kernel.
  const double vec = std::fmod(hidden, kGradInputVectorElements) == 0 ? kGradInputVectorElements : 1;
  KernelPlan k;
  k.name =
      std::string("layer_norm_grad_input_kernel") + (vec > 1 ? "_vectorized" : "") + (rms ? " (rms)" : "");
  k.blocks = rows;
  k.threads = kGradInputThreads;
  k.registers = kGradInputRegisters;
  // The second pass over dY and X hits L2 while the rows the resident blocks hold fit in their share of
  // it; beyond that, the other blocks' streaming evicts a row before its second pass and both passes
  // read DRAM (dev: 16384 x 5120 bf16 and 65536 x 7168 fp32 run at five row-bytes of DRAM traffic per
  // row, 16384 x 320 at three).
  const double resident_rows = std::min(rows, double(gpu.blocks_per_sm(k.resources(), k.name)) * gpu.sms());
  const bool reread_from_dram = resident_rows * 2 * row_bytes > kRereadL2Share * gpu.l2_bytes();
  const double row_reads = reread_from_dram ? 4 : 2;  // dY and X, once or twice
  k.dram_bytes = (row_reads + 1) * row_bytes + kRowStatsBytes +
                 row_bytes / std::max(1.0, rows);  // dY, X (and again), dX; stats; gamma once
  k.dram_write_bytes = row_bytes;
  k.l2_bytes = 5 * row_bytes;  // dY and X read twice, dX written
  k.simt_instructions =
      (rms ? kRmsGradInputInstructionsPerElement : kGradInputInstructionsPerElement) * hidden;
  // The scalar kernel's loop is unrolled four deep; the vectorized one loads a vector per step.
  const double iterations = std::ceil(hidden / (vec * k.threads * (vec > 1 ? 1 : kGradInputScalarUnroll)));
  k.dram_rounds = iterations;
  k.l2_rounds = iterations;
  // More rows than fit at once: every later wave's blocks wait their own first load too (the
  // kernel's fill pays only the first wave's), as in the forward norm, reduce and softmax kernels.
  if (rows > resident_rows) k.dram_rounds += 1;
  // A vector of dY and of X per thread; the scalar kernel keeps its four unrolled loads in flight.
  // Only threads with a vector of the row load one: a row shorter than a vector per thread (fewer
  // than 512 columns of the vectorized kernel) keeps fewer in flight (as in the forward norm).
  const double loading_threads = std::min(double(k.threads), std::ceil(hidden / vec));
  k.bytes_in_flight = loading_threads * 2 * vec * e * (vec > 1 ? 1 : kGradInputScalarUnroll);
  k.fixed_cycles = 2 * block_reduce_cycles(k.threads, gpu);
  // Each step's arithmetic runs between its loads and the next step's loads (a warp issues in
  // order), so a thread's own instructions lie on the block's critical path beside its round trips:
  // co-resident blocks can fill the SM's idle issue slots, not shorten one block's chain. Dev, both
  // GPUs: one-wave rows of 4,099-16,384 columns were predicted 7-20% short.
  k.fixed_cycles += k.simt_instructions / k.threads / kDependentIssuePerCycle;
  // GammaBetaBackwardCUDAKernel: column sums of dY*xhat (and dY) over the rows. A block owns 32
  // columns and walks every row, 32 rows a step, kGammaBetaStepsInFlight steps unrolled: few columns
  // leave most SMs idle however many rows there are, and its time grows with the rows.
  const double elements = rows * hidden;
  const double out_bytes = hidden * e * (rms ? 1 : 2);
  const double block_dim_y = rows < kGammaBetaFewRows    ? 1
                             : rows < kGammaBetaSomeRows ? 8
                             : rows < kGammaBetaManyRows ? 16
                                                         : 32;
  // The L2 still holds the reuse share's part of what the input-gradient kernel streamed (dY, X, dX
  // and the row stats): the column reduction's reads of dY and X find that share there.
  const double streamed_bytes = 3 * rows * row_bytes + rows * kRowStatsBytes;
  const double dram_read_share = 1 - gpu.l2_hit_fraction(streamed_bytes);
  const double column_blocks = std::ceil(hidden / kGammaBetaColumns);
  if (rows > kGammaBetaSplitMinRows && std::floor(hidden / kGammaBetaColumns) < std::floor(gpu.sms() / 2.0)) {
    return norm_backward_split_rows(r, gpu, k, column_blocks, dram_read_share);
  }
  KernelPlan g;
  g.name = "GammaBetaBackwardCUDAKernel<32, " + std::to_string(int(block_dim_y)) + ">";
  g.blocks = std::ceil(hidden / kGammaBetaColumns);
  g.threads = static_cast<int>(kGammaBetaColumns * block_dim_y);
  g.registers = kGammaBetaRegisters;
  g.simt_instructions = kGammaBetaInstructionsPerElement * elements / g.blocks;
  g.dram_bytes = (2 * elements * e + rows * kRowStatsBytes + out_bytes) / g.blocks;
  g.dram_write_bytes = out_bytes / g.blocks;
  g.l2_bytes = g.dram_bytes;
  g.dram_rounds = kGammaBetaRoundsPerIteration * std::ceil(rows / (kGammaBetaRowsPerThread * block_dim_y));
  // The input-gradient kernel just streamed dY and X (and wrote dX): the column reduction finds the
  // share of them the L2's reuse share still holds there (all of them while the three tensors and the
  // row stats fit it) and reads DRAM for the rest and for what it writes (its dependent rounds stay:
  // kGammaBetaRoundsPerIteration was fit on L2-resident reductions). Dev, both GPUs: 65536 x 64 bf16
  // took 155-180 us, not the 246 us of two blocks' in-flight-limited DRAM stream; tuning set (H100):
  // 65536 x 64 fp32 (50 MB streamed, 0.7 of it the reuse share) took 244 us where two blocks
  // reading all of dY and X from DRAM at one SM's rate take 480 us.
  const double reads_bytes = g.dram_bytes - g.dram_write_bytes;
  g.dram_bytes = g.dram_write_bytes + reads_bytes * dram_read_share;
  // An iteration's dY and X rows, spread over its two round trips (the stats' round carries next to
  // nothing): what each dependent round keeps in flight on average.
  g.bytes_in_flight = g.threads * 2 * e * kGammaBetaRowsPerThread / kGammaBetaRoundsPerIteration;
  // One thread per column needs no reduction across threads (block_dim_y = 1).
  g.fixed_cycles = block_dim_y > 1 ? block_reduce_cycles(g.threads, gpu) : 0;
  return PlanOption{k.name + " + GammaBetaBackward", {k, g}, 0};
}

PlanOption embedding_backward_plan(const wl::EmbeddingOp& m, const device::Device& gpu) {
  const double e = bytes_per_element(m.dtype);
  const double tokens = static_cast<double>(m.tokens);
  const double dim = static_cast<double>(m.dim);
  const double table_bytes = static_cast<double>(m.vocab) * dim * e;
  PlanOption option{"embedding_dense_backward", {}, 0};
  // The gradient table starts as zeros: a fill kernel over the whole table, one launch per 2^31 bytes.
  std::vector<KernelPlan> zero_fill;
  const int fills = index_launches(table_bytes);
  for (int i = 0; i < fills; ++i) {
    // zero_() runs vectorized_elementwise_kernel<FillFunctor>: its io size is the element's.
    KernelPlan z =
        streaming_kernel("fill (zero the weight gradient)", table_bytes / e / fills, 0, table_bytes / fills,
                         kFillInstructionsPerElement, gpu, vectorized_elements_per_thread(e));
    z.reads_dram = false;
    zero_fill.push_back(z);
  }
  if (tokens <= kEmbeddingDirectBackwardMaxIndices) {
    option.kernels = zero_fill;
    // embedding_backward_feature_kernel: each index's gradient row added into its table row.
    // A block per warp-wide slice of features (a warp by kFeatureKernelRowsPerStep threads) walks
    // every index, kFeatureKernelRowsPerStep at a time: it loads the batch's indices, then their
    // gradient rows' features, and adds them into the table rows.
    const double features = gpu.warp_size();
    KernelPlan f;
    f.name = "embedding_backward_feature_kernel";
    f.blocks = std::ceil(dim / features);
    f.threads = static_cast<int>(features * kFeatureKernelRowsPerStep);
    f.registers = kFeatureKernelRegisters;
    f.simt_instructions = kFeatureKernelInstructionsPerElement * tokens * features;
    f.dram_bytes = 3 * tokens * features * e + kIndexBytes * tokens;
    f.dram_write_bytes = tokens * features * e;
    f.l2_bytes = f.dram_bytes;
    f.dram_rounds = 2 * std::ceil(tokens / kFeatureKernelRowsPerStep);  // the batch's indices, then its rows
    f.bytes_in_flight = f.threads * e;
    option.kernels.push_back(f);
    option.name += " (direct)";
    return option;
  }
  for (int i = 0; i < kEmbeddingSortKernels; ++i) {
    // The zero fill is issued after the radix sort, before the unique-by-key (the profiled order).
    if (i == kEmbeddingSortKernelsBeforeFill)
      option.kernels.insert(option.kernels.end(), zero_fill.begin(), zero_fill.end());
    KernelPlan s = streaming_kernel("sort indices / segments", tokens, kSortBytesPerIndex * tokens,
                                    kSortBytesPerIndex * tokens, kSortInstructionsPerIndex, gpu);
    const bool pass = i >= kRadixFirstPass && (i - kRadixFirstPass) % 2 == 0 &&
                      (i - kRadixFirstPass) / 2 < kRadixSortPasses;
    if (pass) {
      s.name = "radix sort one-sweep pass";
      s.fixed_cycles += kRadixPassCycles;
    } else if (i == kRadixHistogram || i == kUniqueByKey || i == kSegmentScan) {
      s.fixed_cycles += kSortSweepCycles;
    }
    option.kernels.push_back(s);
  }
  // Per-partial-segment sums of the gradient rows (fp32), then each segment's sum written into its
  // table row (models/embedding_segments.h).
  const EmbeddingSegments segments = expected_segments(tokens, static_cast<double>(m.vocab));
  const KernelPlan cw = compute_grad_weight_kernel(segments, tokens, dim, e, gpu);
  const KernelPlan ss = sum_and_scatter_kernel(segments, dim, e, gpu);
  option.kernels.push_back(cw);
  option.kernels.push_back(ss);
  // Every launch is issued by the host (eager), and the two readbacks stall it until the GPU catches up.
  const auto& launch = gpu.launch();
  option.host_us = static_cast<double>(option.kernels.size()) * launch.host_eager_us +
                   kEmbeddingSortHostSyncs * gpu.host_link().transfer_latency_us;
  // The host issues them one by one while the GPU runs the earlier ones: a long fill or segment sum
  // hides the host work queued behind it.
  option.host_between_launches = true;
  option.name += " (sorted)";
  return option;
}

}  // namespace gpucast::models
