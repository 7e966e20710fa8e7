#include "models/embedding_segments.h"

#include <algorithm>
#include <cmath>

#include "models/helper_kernels.h"

namespace gpucast::models {
namespace {
// EmbeddingBackwardKernel.cu (PyTorch 2.x; library facts, the profiled sort path lists
// krn_partials_per_segment, compute_num_of_partial_segments and krn_partial_segment_offset before
// compute_grad_weight and sum_and_scatter): a partial segment holds at most NROWS_PER_THREAD = 10
// rows; both kernels run a thread per feature of the row padded to whole warps (stride_warped) and
// blocks of min(stride_warped, MAX_BLOCK_SIZE = 1024) threads.
constexpr double kRowsPerPartialSegment = 10;
constexpr double kMaxSegmentBlockThreads = 1024;
// Past this many rows per index the Poisson sum is replaced by its mean (a bound on the loop; the
// ceiling then adds about half a partial segment per index; assumption).
constexpr double kPoissonSumMaxMean = 1000;
// Lane instructions per thread beyond the loads: offsets, the 64-bit address of the row element, the
// fp32 add and the store (assumption).
constexpr double kSegmentThreadInstructions = 12;
// Registers per thread of the two segment kernels (assumption).
constexpr int kSegmentRegisters = 32;
// Dependent round trips of compute_grad_weight's thread beyond its rows: the partial segment's
// offsets, then its first sorted index; the indices after the first share its line (an L1 hit), and
// each row's gradient element waits its own round trip (the fp32 add before the next load, in-order
// issue). sum_and_scatter's: the segment's partial offsets, then (after its partials) the segment's
// first index and the table row it names (EmbeddingBackwardKernel.cu's loops; library fact). Dev and
// tuning sets, H100 and H200: compute_grad_weight at one row per partial segment takes about 2.05 us
// per full wave of threads and 0.6 us more per further row; sum_and_scatter at one partial per
// segment about as long as compute_grad_weight at one row.
constexpr double kGradWeightChainRounds = 2;
constexpr double kSumScatterChainRounds = 2;
// Issue time of each dependent round beyond its latency: every resident warp's 64-bit address
// arithmetic (the segment and feature from the thread index, row times stride) and the fp32 add on
// the SM's schedulers between one load and the next (cycles per round). Fit on the profiled
// compute_grad_weight and sum_and_scatter durations over 20 us (46 kernels: the dev split on the H100
// and H200, the H100 tuning sets): 250 / 300 / 350 / 400 cycles leave 9.3 / 8.4 / 7.7 / 7.7% MAPE
// (bias -6.5 / -2.8 / +0.9 / +4.6%); 300 taken, the lowest that keeps every dev description's
// embedding_bwd MAPE below the old model's (the op's totals also carry the generic queued-kernel
// charge for its 31 launches, which these GPU-bound cases overlap).
constexpr double kSegmentRoundIssueCycles = 300;

double stride_warped(double dim, const device::Device& gpu) {
  return std::ceil(dim / gpu.warp_size()) * gpu.warp_size();
}

// A segment kernel: a thread per (segment, feature), `loop` dependent loads per thread after
// `chain` round trips, reading `read_bytes` and writing `write_bytes` in all.
KernelPlan segment_kernel(const char* name, double segments, double dim, double loop, double chain,
                          double read_bytes, double write_bytes, double load_bytes,
                          const device::Device& gpu) {
  const double sw = stride_warped(dim, gpu);
  KernelPlan k;
  k.name = name;
  k.threads = static_cast<int>(std::min(sw, kMaxSegmentBlockThreads));
  k.blocks = std::max(1.0, std::ceil(segments * sw / k.threads));
  k.registers = kSegmentRegisters;
  k.simt_instructions = (kSegmentThreadInstructions + loop) * k.threads;
  k.dram_bytes = (read_bytes + write_bytes) / k.blocks;
  k.dram_write_bytes = write_bytes / k.blocks;
  k.l2_bytes = k.dram_bytes;
  k.dram_rounds = chain + loop;
  k.fixed_cycles = kSegmentRoundIssueCycles * (chain + loop);
  // One scalar load per thread outstanding at a time.
  k.bytes_in_flight = k.threads * load_bytes;
  k.reads_dram = true;
  // More blocks than fit at once: every later wave's blocks wait their own first load too (the
  // kernel's fill pays only the first wave's), as in the reduce and norm kernels.
  const device::BlockResources block{k.threads, k.registers, 0, 0};
  const double slots = gpu.sms() * std::max(1, gpu.occupancy(block).blocks_per_sm);
  if (k.blocks > slots) k.dram_rounds += 1;
  return k;
}
}  // namespace

EmbeddingSegments expected_segments(double tokens, double vocab) {
  EmbeddingSegments s;
  if (tokens <= 0 || vocab <= 0) return s;
  const double mean = tokens / vocab;
  s.unique = vocab * -std::expm1(-mean);
  if (mean > kPoissonSumMaxMean) {
    s.partial = vocab * (mean / kRowsPerPartialSegment + 0.5);
    return s;
  }
  // Sum over counts c >= 1 of P(c) * ceil(c / 10), the Poisson pmf by its recurrence.
  const double last = mean + 12 * std::sqrt(mean) + 30;
  double p = std::exp(-mean);
  double partial_per_row = 0;
  for (double c = 1; c <= last; ++c) {
    p *= mean / c;
    partial_per_row += p * std::ceil(c / kRowsPerPartialSegment);
  }
  s.partial = std::max(s.unique, vocab * partial_per_row);
  return s;
}

KernelPlan compute_grad_weight_kernel(const EmbeddingSegments& s, double tokens, double dim,
                                      double element_bytes, const device::Device& gpu) {
  const double rows_per_partial = s.partial > 0 ? tokens / s.partial : 0;
  const double fp32 = 4;
  const double reads = tokens * dim * element_bytes + kIndexBytes * (tokens + s.partial);
  const double writes = s.partial * dim * fp32;
  return segment_kernel("compute_grad_weight", s.partial, dim, rows_per_partial, kGradWeightChainRounds,
                        reads, writes, element_bytes, gpu);
}

KernelPlan sum_and_scatter_kernel(const EmbeddingSegments& s, double dim, double element_bytes,
                                  const device::Device& gpu) {
  const double partials_per_segment = s.unique > 0 ? s.partial / s.unique : 0;
  const double fp32 = 4;
  const double reads = s.partial * dim * fp32 + kIndexBytes * 3 * s.unique;
  const double writes = s.unique * dim * element_bytes;
  return segment_kernel("sum_and_scatter", s.unique, dim, partials_per_segment, kSumScatterChainRounds, reads,
                        writes, fp32, gpu);
}

}  // namespace gpucast::models
