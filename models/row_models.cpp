#include "models/row_models.h"

#include <algorithm>
#include <cmath>

#include "models/backward_kernels.h"
#include "models/batch_norm_model.h"
#include "models/helper_kernels.h"
#include "models/l2_writeback.h"
#include "models/reduce_strategy.h"

namespace gpucast::models {
namespace {

double next_pow2(double v) {
  return std::pow(2.0, std::ceil(std::log2(std::max(1.0, v))));
}

// PyTorch's softmax kernels compute an accurate exp twice per element (once for the sum, once for
// the output), an IEEE division and 64-bit index arithmetic. cunn_SoftMaxForwardReg (scalar loads,
// the row in registers, reg_cnt = ceil(cols / threads) slots per thread) runs its three unrolled
// loops over every slot, each with its 64-bit offset and bounds check, and the math over the real
// elements: SIMT lane instructions per element and per slot (threads x reg_cnt). Fit on the dev and
// calibration splits, H100+H200 (2,067-8,192 columns, 1-65,536 rows): 60 and 50 (one constant per
// element, 125, left 12.5% MAPE on those cases; the split, 8.8%).
constexpr double kSoftmaxRegInstructionsPerElement = 60;
constexpr double kSoftmaxRegInstructionsPerSlot = 50;
// The vectorized (ILP) block kernels (shared-memory and three-pass): per element, the math (two
// exps, the max and sum folds, the division, conversions); per 16-byte vector of ILP elements, the
// 64-bit address arithmetic, bounds checks and loop control of the three passes. So 16-bit rows
// (ILP 8) cost fewer instructions per element than fp32 rows (ILP 4). Dev constants, first set on
// few-row three-pass softmaxes over 32K-128K columns (about 62 lane instructions per bf16 element and
// 79 per fp32 element); they now price cunn_SoftMaxForwardSmem, whose rows are whole vectors.
constexpr double kSoftmaxInstructionsPerElement = 45;
constexpr double kSoftmaxInstructionsPerVector = 136;
// The three-pass kernel (cunn_SoftMaxForward) walks each pass in 16-byte vectors only while a whole
// block-wide stride (threads x ILP elements) remains; the remainder goes one element per thread per
// loop iteration (ilpReduce, WriteFpropResultsVectorized in SoftMax.cu; library fact), and each such
// iteration pays the loop's overhead for one element. Per element and per loop iteration (lane
// instructions), fit on the dev and calibration splits, H100+H200 (23,712-151,936 columns):
// 25 and 136. Without the scalar remainder the best refit left 10.2% MAPE on those cases, with it 8.0%
// (4096 x 32,000 bf16, whose 7,424-element remainder is 23% of the row, costs as much per element
// as 4096 x 50,257 although its rows are shorter).
constexpr double kThreePassInstructionsPerElement = 25;
constexpr double kThreePassInstructionsPerIteration = 136;
// softmax_warp_forward holds the row padded to a power of two in registers and runs the max, the
// exp-sum and the normalization over every padded slot; the tail is -inf and skips the loads, the
// exp's input scaling and the stores, so a padded slot costs about half a real element. Each row a
// lane takes has its own setup (index and bounds, the two warp reductions' shuffles, the -inf fill)
// and a 16-bit row one conversion per slot each way. Instructions a lane issues, fitted on Nsight
// Compute counts (smsp__inst_executed per warp, not times) at ten dev and calibration shapes
// (validation/runs/h100-sxm/row-kernels/ncu-row-kernels.csv, H100: 10-1,025 columns, one or two rows
// a warp, fp32/bf16/fp16): 42 a row, 36 a real element, 18 a padded slot, 2 a 16-bit slot; the ten
// counts within -8% to +4% (152-1,829 a warp), where 40 a padded slot, the model before, was off by
// -47% to +40% (37832 x 10 fp32, 8192 x 1,025 bf16).
constexpr double kWarpSoftmaxInstructionsPerRow = 42;
constexpr double kWarpSoftmaxInstructionsPerElement = 36;
constexpr double kWarpSoftmaxInstructionsPerPaddedSlot = 18;
constexpr double kWarpSoftmaxInstructionsPer16BitSlot = 2;
// softmax_warp_forward loads one element per lane per iteration, unvectorized
// (PersistentSoftmax.cuh; library fact): a 16-bit row reaches the memory system as 64-byte warp
// requests, half a 128-byte line each, where fp32 rows send whole lines. Those half-line reads stream
// at this share of the full-line read rate, and a later wave's load round trip drains its rows at
// that rate too. Fit on the dev split, H100+H200 (0.6-0.7 tried): 16-bit rows of 512-2,048 columns
// over many waves ran 11-18% longer than predicted while fp32 rows of the same shapes were within 2%.
constexpr double kWarpSoftmaxHalfLineReadEfficiency = 0.65;
// The element size below which a lane's load covers less than a 4-byte word (fp16, bf16).
constexpr double kWarpSoftmaxFullWordBytes = 4;
// SoftMax.cu dispatches rows of at most 2048 elements and 8 KiB to softmax_warp_forward (library fact).
constexpr double kWarpSoftmaxMaxColumns = 2048;
constexpr double kWarpSoftmaxMaxRowBytes = 8192;
// softmax_warp_forward: 128-thread blocks; a warp takes two rows (WARP_BATCH) when the padded row is
// at most 128 elements (persistent_softmax.cuh; library fact).
constexpr double kWarpSoftmaxThreads = 128;
constexpr double kWarpSoftmaxTwoRowsMaxPadded = 128;
// softmax_warp_forward's registers: a base plus the row's padded elements a lane holds (assumption,
// scaled to the element count the kernel keeps in registers).
constexpr double kWarpSoftmaxBaseRegisters = 24;
constexpr double kWarpSoftmaxRegistersPerElement = 1.5;
// softmax_warp_forward's write-out loop (persistent_softmax.cuh) stores element by element with an
// early exit at the row's end, and each element's IEEE division carries a slow-path check: its
// iterations do not overlap, a dependent chain per 32-element iteration of the real (not padded) row.
// Fit on the dev and calibration splits, H100+H200 (cycles per iteration): one-wave launches grow by
// about 0.08-0.1 us per iteration (1 x 128 to 134 x 1,283 fp32), and 1,025 and 2,048 columns (both
// padded to 2,048) take about the same time per real element, not per row.
constexpr double kWarpSoftmaxStoreIterationCycles = 200;
// CUDA's per-thread register ceiling (255 on every architecture since Kepler; CUDA programming guide).
constexpr double kMaxRegistersPerThread = 255;
// softmax_warp_forward's fixed work beyond its two warp reductions: index setup, the -inf padding
// and the store (cycles; assumption).
constexpr double kWarpSoftmaxFixedCycles = 100;
// Block softmax (cunn_SoftMaxForward*): at most 1024 threads per block (SoftMax_getBlockSize;
// library fact), about 40 registers per thread (assumption).
constexpr double kSoftmaxMaxBlockThreads = 1024;
constexpr int kSoftmaxBlockRegisters = 40;
// Each element takes two exps in the block kernels: one for the sum, one for the output (SoftMax.cu).
constexpr double kSoftmaxExpsPerElement = 2;
// Rows that leave each thread fewer than this many elements stay in registers (cunn_SoftMaxForwardReg;
// the model's reading of SoftMax.cu's dispatch).
constexpr double kSoftmaxRegMaxElementsPerThread = 10;
// cunn_SoftMaxForwardReg's fixed work beyond its two block reductions (cycles; assumption).
constexpr double kSoftmaxRegFixedCycles = 200;
// cunn_SoftMaxForwardSmem: each staged vector costs a shared-memory store and a reload of about this
// many cycles each (assumption).
constexpr double kSmemStageCycles = 40;
// cunn_SoftMaxForward's passes over the row: max, sum of exp, write (SoftMax.cu; library fact).
constexpr double kSoftmaxPasses = 3;
// The block reduction's shared buffer: one fp32 accumulator per warp (SoftMax.cu; library fact).
constexpr double kReductionSlotBytes = 4;

// Blocks of `threads` threads using `registers` each that one SM holds at once (the device's
// occupancy rule; at least one).
double resident_blocks_per_sm(double threads, double registers, const device::Device& gpu) {
  const device::BlockResources block{static_cast<int>(threads), static_cast<int>(registers), 0, 0};
  return std::max(1, gpu.occupancy(block).blocks_per_sm);
}

// A row pass that rereads its row (three-pass softmax, the norms' second pass) hits the L2 only
// while this many rows per resident block fit in it: the row being reread, the output it writes
// through the L2, and the rows the other blocks stream past it meanwhile (the L2 is no perfect LRU
// under streaming). Fit on the dev and calibration splits, H100+H200: 4 rows, against 2 before, takes
// the three-pass softmax cases' MAPE from 8.0% to 5.6% (64-4,096 rows of 23,712-131,072 columns,
// measured close to three DRAM reads and one write per element) and vectorized RMS norm's from 14.7%
// to 12.6% (large norms of 3,072-8,192 columns run at about 60% of the DRAM rate).
constexpr double kRereadRowsPerResidentBlock = 4;

// Share of a second pass over rows that still finds them in L2 (the window above).
double reread_hit_fraction(double resident_rows, double row_bytes, const device::Device& gpu) {
  return gpu.l2_hit_fraction(kRereadRowsPerResidentBlock * resident_rows * row_bytes);
}

// Vector loads one thread keeps outstanding in the reduction loop: the loop body is one vector load
// folded into the accumulators, and the next load issues only after the fold (in-order issue), so a
// thread waits one DRAM round trip per vector. Dev cases: single-row sums of 32K-100K columns (one
// block alone on the GPU) take about one DRAM latency per 16-byte vector a thread reads.
constexpr double kReduceLoadsInFlight = 1;
// The scalar loop (rows of at most 128 elements) is unrolled vt0 = 4 deep: four loads in flight.
constexpr double kReduceScalarLoadsInFlight = 4;
// Issue time between a thread's two vector loads beyond the DRAM latency: the fold of the vector, the
// index and bounds arithmetic of every warp of the block on the SM's schedulers (cycles; dev
// constant: one-block-per-row sums of 4-25 vector iterations grow by about 0.5 us per iteration on
// both GPUs, the pointer-chase latency is 0.35 us).
constexpr double kReduceIterationCycles = 300;
// Combining a split row: each block writes its partial to the staging buffer, fences (waits for
// the write to reach L2), counts in on the row's semaphore with an atomic, and the last block
// rereads the row's partials and reduces them: four dependent L2/DRAM round trips and two
// block-wide reductions (cycles; dev: split rows take about 2 us more than one-block rows of equal
// per-thread work on both GPUs).
constexpr double kSplitCombineCycles = 4000;
// reduce_kernel's registers per thread: Reduce.cuh declares reduce_kernel<nt, ...> with
// C10_LAUNCH_BOUNDS_2(nt, 4), four blocks of nt = 512 threads per SM, so the compiler keeps it to
// 65536 / (4 * 512) = 32 registers (library fact; the H100 traces' reduce_kernel<512, 1> sum and mean
// launches record 32 registers per thread and 4 resident blocks per SM).
constexpr int kReduceRegisters = 32;
// reduce_kernel's prologue, once per kernel: before its first load a block reads the ReduceConfig and
// the input and output OffsetCalculators from the kernel's parameters (Reduce.cuh passes the whole
// ReduceOp by value, several hundred bytes, missing the constant cache on a cold launch) and turns its
// block and thread indices into 64-bit offsets through them, dependent steps the vectorized pointwise
// kernel does not take. Fit on the dev split, H100 and H200, the best sum of the four descriptions'
// reduce MAPEs: 1,250 cycles before the per-thread instructions below were counted, 900 with them
// (700-1,250 scanned: 21.00, 20.85, 20.83, 20.96, 21.17, 21.64; flat from 800 to 900), when part of
// what the prologue stood for became the instructions every thread issues.
constexpr double kReducePrologueCycles = 900;
// Instructions every reduce_kernel thread issues beyond its per-element work: the prologue's index
// arithmetic, the bounds checks of the unrolled and tail loops, the warp's shuffle reduction (five
// steps), the output's offset and store. Measured, not fitted: Nsight Compute counts 184-203 warp
// instructions per warp for sums over 131,072 rows of 5-64 columns (one or two values a thread, bf16
// and fp32 alike), 212-267 for 96-256 columns (validation/runs/h100-sxm/short-rows/ncu-counts.csv),
// of which the per-element counts below cover about 8 at two values. Many-row sums of short rows
// are bound by issuing them: the profiled kernels keep the schedulers issuing 85-88% of cycles
// (ncu-details.csv), and their time is the same for bf16 and fp32 (short-rows.json).
constexpr double kReduceInstructionsPerThread = 190;
// Lane instructions per element of a sum: the load's share and the add, plus a conversion for
// 16-bit inputs (fp32 accumulators; assumption).
constexpr double kReduceInstructionsPerElement = 3;
constexpr double kReduce16BitInstructionsPerElement = 4;

// A sum over the last dimension, launched the way ATen's setReduceConfig chooses
// (models/reduce_strategy.h): several rows per block, a block per row, or a row split across blocks.
PlanOption reduce_plan(const wl::RowOp& r, const device::Device& gpu) {
  const double e = bytes_per_element(r.dtype);
  const ReduceLaunch launch =
      reduce_launch(r.rows, r.cols, e, gpu.sms(), gpu.sm_limits().max_threads, gpu.warp_size());
  const double rows = std::ceil(static_cast<double>(r.rows) / (r.cols >= r.rows ? 1 : launch.launches));
  const double cols = std::ceil(static_cast<double>(r.cols) / (r.cols >= r.rows ? launch.launches : 1));
  const double vec = launch.vector_elements;
  const double threads = launch.threads();
  KernelPlan k;
  k.name = "reduce_kernel (" + std::string(reduce_strategy_name(launch.strategy)) + ")";
  k.blocks = launch.grid;
  k.threads = static_cast<int>(threads);
  k.registers = kReduceRegisters;
  const double elements_per_block = rows * cols / k.blocks;
  // Per element: the load's share, a conversion for 16-bit inputs, the add; fp32 accumulators.
  const bool narrow = e < bytes_per_element(DataType::fp32);
  k.simt_instructions =
      threads * kReduceInstructionsPerThread +
      (narrow ? kReduce16BitInstructionsPerElement : kReduceInstructionsPerElement) * elements_per_block;
  const double out_bytes = rows * e;
  const double in_bytes = rows * cols * e;
  k.dram_bytes = (in_bytes + out_bytes) / k.blocks;
  k.dram_write_bytes = out_bytes / k.blocks;
  k.l2_bytes = k.dram_bytes;
  // Each thread folds values_per_thread elements, vec at a time, kReduceLoadsInFlight loads deep.
  const double in_flight = launch.vectorized ? kReduceLoadsInFlight : kReduceScalarLoadsInFlight;
  const double iterations = std::ceil(launch.values_per_thread / vec);
  k.dram_rounds = std::ceil(iterations / in_flight);
  k.bytes_in_flight = threads * vec * e * in_flight;
  k.fixed_cycles = block_reduce_cycles(threads, gpu);
  const device::BlockResources block{k.threads, k.registers, 0, 0};
  const double slots = gpu.sms() * std::max(1, gpu.occupancy(block).blocks_per_sm);
  if (k.blocks > slots) {
    // More blocks than fit at once: every later wave's blocks wait their own first load too (the
    // kernel's fill pays only the first wave's); the DRAM queue, not issue, sets the pace.
    k.dram_rounds += 1;
  } else if (launch.vectorized) {
    // One wave, latency-bound: each vector iteration also waits the block's issue between loads.
    k.fixed_cycles += iterations * kReduceIterationCycles;
  }
  if (launch.strategy == ReduceStrategy::row_across_blocks) k.fixed_cycles += kSplitCombineCycles;
  k.startup_cycles = kReducePrologueCycles;
  // The dirty L2 lines its reads evict are written back meanwhile (models/l2_writeback.h).
  k.dirty_evicted_bytes = evicted_dirty_bytes(in_bytes, launch.launches, gpu) / k.blocks;
  PlanOption option{k.name, {}, 0};
  for (int i = 0; i < static_cast<int>(launch.launches); ++i) {
    if (launch.strategy == ReduceStrategy::row_across_blocks) option.kernels.push_back(memset_kernel(gpu));
    option.kernels.push_back(k);
  }
  return option;
}

// SoftMax.cu (host_softmax) stages the row in shared memory only when it fits the default per-block
// limit (sharedMemPerBlock, 48 KB without the opt-in) beside the block reduction's floats, and when
// the row length is a multiple of the 16-byte vector (ILP elements), so that every row starts
// aligned. An odd length takes the three-pass kernel, which reads the row three times. Library fact.
constexpr double kSoftmaxSharedLimitBytes = 48 * 1024;
bool softmax_row_fits_shared(double cols, double element_bytes, double threads, const device::Device& gpu) {
  const double ilp = kVectorBytes / element_bytes;
  const double reduction_bytes = threads / gpu.warp_size() * kReductionSlotBytes;
  return cols * element_bytes < kSoftmaxSharedLimitBytes - reduction_bytes && std::fmod(cols, ilp) == 0;
}

PlanOption softmax_plan(const wl::RowOp& r, const device::Device& gpu) {
  const double rows = static_cast<double>(r.rows);
  const double cols = static_cast<double>(r.cols);
  const double e = bytes_per_element(r.dtype);
  const double io = rows * cols * 2 * e;
  KernelPlan k;
  double reread_bytes = 0;  // per block, DRAM rereads of rows the L2 could not keep
  k.sfu_ops = 0;
  if (cols <= kWarpSoftmaxMaxColumns && cols * e <= kWarpSoftmaxMaxRowBytes) {
    // softmax_warp_forward: a warp owns a row (two when short), held entirely in registers.
    const double padded = next_pow2(cols);
    const double rows_per_warp = padded <= kWarpSoftmaxTwoRowsMaxPadded ? 2 : 1;
    // A row narrower than a warp runs on a logical warp of its padded width (warp_size =
    // min(padded, 32) in SoftMax.cu's dispatch; library fact): a block holds that many more rows.
    const double row_lanes = std::min(padded, static_cast<double>(gpu.warp_size()));
    const double rows_per_block = kWarpSoftmaxThreads / row_lanes * rows_per_warp;
    k.name = "softmax_warp_forward";
    k.blocks = std::ceil(rows / rows_per_block);
    k.threads = static_cast<int>(kWarpSoftmaxThreads);
    k.registers = static_cast<int>(std::min(
        kMaxRegistersPerThread,
        kWarpSoftmaxBaseRegisters + kWarpSoftmaxRegistersPerElement * rows_per_warp * padded / row_lanes));
    // A block of fewer rows than it could take (a small batch) works on those rows only.
    const double block_rows = std::min(rows, rows_per_block);
    const double elements = block_rows * padded;
    // Lane instructions: each row's lanes issue the row's setup once and their share of its real and
    // padded slots.
    k.simt_instructions =
        block_rows * (kWarpSoftmaxInstructionsPerRow * row_lanes + kWarpSoftmaxInstructionsPerElement * cols +
                      kWarpSoftmaxInstructionsPerPaddedSlot * (padded - cols) +
                      (e < kWarpSoftmaxFullWordBytes ? kWarpSoftmaxInstructionsPer16BitSlot * padded : 0.0));
    k.sfu_ops = elements;
    k.dram_rounds = 1;
    k.bytes_in_flight = rows_per_block * cols * e;  // the whole row is loaded into registers
    if (e < kWarpSoftmaxFullWordBytes) {
      // Half-line 16-bit requests: a slower stream, and a round trip that drains at that rate.
      k.dram_read_efficiency = kWarpSoftmaxHalfLineReadEfficiency;
      k.bytes_in_flight /= kWarpSoftmaxHalfLineReadEfficiency;
    }
    // The write-out walks the row's real iterations one after another (per row of the warp).
    const double store_iterations = std::min(rows, rows_per_warp) * std::ceil(cols / row_lanes);
    k.fixed_cycles = 2 * warp_reduce_cycles(gpu) + kWarpSoftmaxFixedCycles +
                     store_iterations * kWarpSoftmaxStoreIterationCycles;
    // A later wave's warps load their whole rows at once and wait for them before any math (the
    // kernel's fill pays only the first wave's load).
    if (k.blocks > gpu.sms() * resident_blocks_per_sm(k.threads, k.registers, gpu)) k.dram_rounds += 1;
  } else {
    // Block softmax, one block per row (SoftMax.cu): threads = min(cols, 1024) rounded to warps.
    const double threads =
        std::ceil(std::min(cols, kSoftmaxMaxBlockThreads) / gpu.warp_size()) * gpu.warp_size();
    const double ilp = kVectorBytes / e;
    const double per_thread = std::ceil(cols / threads);
    const double loads_per_thread = std::ceil(cols / (threads * ilp));
    k.blocks = rows;
    k.threads = static_cast<int>(threads);
    k.registers = kSoftmaxBlockRegisters;
    k.simt_instructions = (kSoftmaxInstructionsPerElement + kSoftmaxInstructionsPerVector / ilp) * cols;
    k.sfu_ops = kSoftmaxExpsPerElement * cols;
    const double two_reductions = 2 * block_reduce_cycles(threads, gpu);
    k.bytes_in_flight = threads * std::min(per_thread, ilp) * e;
    if (per_thread < kSoftmaxRegMaxElementsPerThread) {
      k.name = "cunn_SoftMaxForwardReg";  // the row stays in registers: one read, one write
      k.simt_instructions =
          kSoftmaxRegInstructionsPerElement * cols + kSoftmaxRegInstructionsPerSlot * per_thread * threads;
      k.dram_rounds = 1;
      k.fixed_cycles = two_reductions + kSoftmaxRegFixedCycles;
    } else if (softmax_row_fits_shared(cols, e, threads, gpu)) {
      k.name = "cunn_SoftMaxForwardSmem";  // the row is staged in shared memory
      k.shared_bytes = cols * e;
      k.dram_rounds = loads_per_thread;
      k.fixed_cycles = two_reductions + 2 * loads_per_thread * kSmemStageCycles;
    } else {
      k.name = "cunn_SoftMaxForward";  // three passes: max, sum of exp, write; rereads hit L2
      // Each pass walks the row in 16-byte vectors while a whole block-wide stride of vectors
      // remains, then the remainder one element per thread per iteration (ilpReduce and
      // WriteFpropResultsVectorized): a remainder element costs a whole loop iteration.
      const double stride = threads * ilp;
      const double vector_iterations = std::floor(cols / stride);
      const double scalar_iterations = std::ceil(std::fmod(cols, stride) / threads);
      k.simt_instructions =
          threads *
          (vector_iterations * (kThreePassInstructionsPerIteration + ilp * kThreePassInstructionsPerElement) +
           scalar_iterations * (kThreePassInstructionsPerIteration + kThreePassInstructionsPerElement));
      k.dram_rounds = loads_per_thread;
      k.l2_rounds = (kSoftmaxPasses - 1) * loads_per_thread;
      k.fixed_cycles = two_reductions;
      k.l2_bytes = kSoftmaxPasses * cols * e + cols * e;
      // Rows too long for the L2 to hold all resident ones: the two rereads go to DRAM.
      const double resident_rows =
          std::min(rows, gpu.sms() * resident_blocks_per_sm(threads, k.registers, gpu));
      reread_bytes =
          (kSoftmaxPasses - 1) * (1 - reread_hit_fraction(resident_rows, cols * e, gpu)) * cols * e;
    }
  }
  k.dram_bytes = io / k.blocks + reread_bytes;
  k.dram_write_bytes = io / 2 / k.blocks;
  k.l2_bytes = std::max(k.l2_bytes, k.dram_bytes);
  return PlanOption{k.name, {k}, 0};
}

// Per row, beyond the generic block reduction: combining the threads' statistics is a dependent
// chain. Layer norm merges Welford triples (mean, M2, count) through five shuffle steps and a
// cross-warp step, each merge with divisions; RMS norm adds sums of squares. Dev constants (cycles
// per block): short-row norms (320-1000 columns, 4K-64K rows) take about 1.5-1.8 us per wave of
// resident rows (layer norm) and 0.35 us (RMS norm) longer than their memory and per-element work,
// on both GPUs. Layer norm's refit with the four-row reread window (kRereadRowsPerResidentBlock,
// which moves time of the larger norms into memory), on the dev and calibration splits, H100+H200:
// 3,300 -> 2,500 cycles (layer norm dev+calibration MAPE 14.0% -> 12.3%, mean of the four
// descriptions). Refit with the 80-cycle Welford chain below, on the dev split (H100+H200, the four
// descriptions) and the H100 tuning set: 2,500 -> 2,250; then -> 1,500 once every later wave of the
// vectorized kernel waits its own first load (norm_plan), which carried the rest of those short rows'
// per-wave time. RMS norm's sum of squares needs nothing beyond the generic block reduction: its
// 700 cycles were that missing per-wave load (with it, 0 is best: rmsnorm dev MAPE 8.4/11.0/9.4/9.9%
// -> 7.2/9.1/8.8/8.8% on H100 calibrated / catalog, H200 calibrated / catalog).
constexpr double kLayerNormCombineCycles = 1500;
// vectorized_layer_norm_kernel needs the row to be whole 4-element vectors; other rows run
// RowwiseMomentsCUDAKernel (512 threads, Welford over the row) and then LayerNormForwardCUDAKernel
// (256 threads, rereads the row and writes it), both with scalar loads (layer_norm_kernel.cu; library
// fact, and what the profiler names for 4,099-column rows).
constexpr double kLayerNormVectorElements = 4;
constexpr double kMomentsThreads = 512;
constexpr double kForwardThreads = 256;
// Registers per thread of RowwiseMomentsCUDAKernel, LayerNormForwardCUDAKernel and
// vectorized_layer_norm_kernel (assumption).
constexpr int kMomentsRegisters = 32;
constexpr int kForwardRegisters = 32;
constexpr int kVectorizedNormRegisters = 48;
// vectorized_layer_norm_kernel's block: 128 threads, 4 warps per row (layer_norm_kernel.cu; library fact).
constexpr double kVectorizedNormThreads = 128;
// Lane instructions per element: Welford moments (RowwiseMomentsCUDAKernel, layer and RMS norm), the
// normalizing pass, and the vectorized kernel's both passes (Welford for layer norm, the sum of
// squares for RMS norm) (assumption).
constexpr double kMomentsInstructionsPerElement = 14;
constexpr double kNormForwardInstructionsPerElement = 8;
constexpr double kVectorizedNormInstructionsPerElement = 18;
constexpr double kVectorizedRmsNormInstructionsPerElement = 10;
// Welford's running mean divides per element (cuWelfordOnlineSum's IEEE 1.f / count, WelfordOps'
// delta / n): a dependent chain per element per thread; the sum of squares is one FMA, about 4
// (cycles; assumption). Fit on the dev split (H100+H200) and the H100 tuning set: few-row
// vectorized norms wait about 0.50 us per vector step of layer norm and 0.35 us of RMS norm (1-7
// rows of 2,560-16,384 columns), 300 cycles more per step of four elements: 40 -> 80 (with the
// combine refit above, layer norm dev MAPE 7.0/7.7/12.7/12.7% -> 6.3/8.3/11.8/12.1% on H100
// calibrated / catalog, H200 calibrated / catalog; tuning 9.4/10.3% -> 8.3/10.2%).
constexpr double kWelfordChainCycles = 80;
constexpr double kSumOfSquaresChainCycles = 4;
// LayerNormForwardCUDAKernel's fixed work per block (cycles; assumption).
constexpr double kNormForwardFixedCycles = 200;
// Vector loads one thread of vectorized_layer_norm_kernel keeps in flight in RMS norm's passes: the
// sum of squares is a one-FMA chain, so the unrolled loop issues part of the next vector's load
// before the fold completes (Welford's dividing chain leaves layer norm at one). Fit on the dev
// split, H100+H200 (calibrated descriptions): 1 -> 1.25 takes RMS norm's dev MAPE from 10.2% to
// 8.7% (H100) and 13.4% to 9.8% (H200); few-row fp32 norms (1-256 rows of 4,096-12,288 columns)
// measured about 20% under one DRAM round trip per vector and pass, and the large norms (3,072-8,192
// columns, 32K-64K rows) faster than one vector per thread in flight allows.
constexpr double kRmsNormLoadsInFlight = 1.25;
// How many of those vector steps share one dependent DRAM round trip in a latency-bound RMS norm
// (the rounds; bytes in flight keep kRmsNormLoadsInFlight) differs by dtype: vec_size is 4 elements
// for every dtype (layer_norm_kernel.cu; library fact), so fp32 rows load 16-byte vectors and 16-bit
// rows 8-byte vectors that each go through a conversion to the fp32 accumulator before the FMA. Fit
// on the dev split, H100+H200 (the H200 cases whose two runs differ by more than 25% judged on the
// faster run) and the H100 tuning set: few-row fp32 norms (1-256 rows of 2,560-12,288 columns) took
// about 1/1.4 of a round trip per vector and pass, 16-bit ones (1-7 rows of 2,560-7,168 columns)
// about 1/1.1, while the many-row (bandwidth-bound) norms of both dtypes keep fitting 1.25 vectors
// in flight; 1.25 for both left fp32 rows 5-12% over and 16-bit rows 7-17% under. The compiled
// loops were not inspected: why the 16-bit loop overlaps less is open (assumption beyond the fit).
constexpr double kRmsNormFp32StepsPerRound = 1.4;
constexpr double kRmsNorm16BitStepsPerRound = 1.1;

// The two-kernel path for rows that are not whole vectors.
PlanOption norm_plan_unvectorized(const wl::RowOp& r, const device::Device& gpu) {
  const double rows = static_cast<double>(r.rows);
  const double hidden = static_cast<double>(r.cols);
  const double e = bytes_per_element(r.dtype);
  const bool rms = r.kind == wl::RowOpKind::rmsnorm;
  const double row_bytes = hidden * e;
  KernelPlan m;
  m.name = std::string("RowwiseMomentsCUDAKernel") + (rms ? " (rms)" : "");
  m.blocks = rows;
  m.threads = static_cast<int>(kMomentsThreads);
  m.registers = kMomentsRegisters;
  m.dram_bytes = row_bytes + kRowStatsBytes;
  m.dram_write_bytes = kRowStatsBytes;
  m.l2_bytes = row_bytes + kRowStatsBytes;
  m.simt_instructions = kMomentsInstructionsPerElement * hidden;
  const double m_iterations = std::ceil(hidden / kMomentsThreads);
  m.dram_rounds = m_iterations;
  m.bytes_in_flight = kMomentsThreads * e;
  // RowwiseMomentsCUDAKernel folds every element through ATen's WelfordOps for RMS norm too (its
  // rms variant only projects m2 + mean^2 at the end; layer_norm_kernel.cu, library fact): the same
  // dividing chain and combine as layer norm.
  m.fixed_cycles = block_reduce_cycles(kMomentsThreads, gpu) + m_iterations * kWelfordChainCycles +
                   kLayerNormCombineCycles;
  KernelPlan f;
  f.name = std::string("LayerNormForwardCUDAKernel") + (rms ? " (rms)" : "");
  f.blocks = rows;
  f.threads = static_cast<int>(kForwardThreads);
  f.registers = kForwardRegisters;
  // The forward kernel rereads X after the moments kernel has streamed all of it: only an X that
  // fits the L2's reuse share is still there (the reread starts at the first row, the oldest).
  const double reread_miss = gpu.fits_in_l2(rows * row_bytes) ? 0 : 1;
  const double params = hidden * e * (rms ? 1 : 2);
  f.dram_bytes = reread_miss * row_bytes + row_bytes + kRowStatsBytes + params / rows;
  f.dram_write_bytes = row_bytes;
  f.l2_bytes = 2 * row_bytes + kRowStatsBytes + params;
  f.simt_instructions = kNormForwardInstructionsPerElement * hidden;
  f.dram_rounds = std::ceil(hidden / kForwardThreads);
  f.bytes_in_flight = kForwardThreads * e;
  f.fixed_cycles = kNormForwardFixedCycles;
  return PlanOption{m.name + " + " + f.name, {m, f}, 0};
}

PlanOption norm_plan(const wl::RowOp& r, const device::Device& gpu) {
  const double rows = static_cast<double>(r.rows);
  const double hidden = static_cast<double>(r.cols);
  const double e = bytes_per_element(r.dtype);
  const bool rms = r.kind == wl::RowOpKind::rmsnorm;
  if (std::fmod(hidden, kLayerNormVectorElements) != 0) return norm_plan_unvectorized(r, gpu);
  // vectorized_layer_norm_kernel: 128 threads (4 warps) per row, 4-element vector loads; pass one
  // accumulates Welford statistics (or the sum of squares for RMS), pass two rereads the row
  // (L1/L2 hit), applies weight (and bias) and writes.
  const double threads = kVectorizedNormThreads;
  const double iterations = std::ceil(hidden / (kLayerNormVectorElements * threads));
  KernelPlan k;
  k.name = std::string("vectorized_layer_norm_kernel") + (rms ? " (rms)" : "");
  k.blocks = rows;
  k.threads = static_cast<int>(threads);
  k.registers = kVectorizedNormRegisters;
  const double row_bytes = hidden * e;
  const double resident_rows = std::min(rows, gpu.sms() * resident_blocks_per_sm(threads, k.registers, gpu));
  // Many long rows in flight push the row out of L2 before pass two rereads it.
  const double reread_miss = 1 - reread_hit_fraction(resident_rows, row_bytes, gpu);
  const double params = hidden * e * (rms ? 1 : 2);  // weight (and bias), shared by all rows via L2
  k.dram_bytes = (rows * row_bytes * (2 + reread_miss) + params + rows * kRowStatsBytes) / rows;
  k.dram_write_bytes = row_bytes + kRowStatsBytes;
  k.l2_bytes = 3 * row_bytes + params;  // read, reread, write
  k.simt_instructions =
      (rms ? kVectorizedRmsNormInstructionsPerElement : kVectorizedNormInstructionsPerElement) * hidden;
  const double chain_per_element = rms ? kSumOfSquaresChainCycles : kWelfordChainCycles;
  const double loads_in_flight = rms ? kRmsNormLoadsInFlight : 1;
  const bool narrow = e < bytes_per_element(DataType::fp32);
  const double steps_per_round = rms ? (narrow ? kRmsNorm16BitStepsPerRound : kRmsNormFp32StepsPerRound) : 1;
  k.dram_rounds = std::ceil(iterations / steps_per_round);
  k.l2_rounds = std::ceil(iterations / steps_per_round);
  // All rows in one wave: pass two's weight (and bias) loads are the first touch of those
  // vectors, so each of its iterations waits a DRAM round trip, not an L2 hit.
  if (rows <= resident_rows) {
    k.dram_rounds += std::ceil(iterations / steps_per_round);
    k.l2_rounds = 0;
  } else {
    // More rows than fit at once: every later wave's blocks wait their own first load too (the
    // kernel's fill pays only the first wave's), as in the reduce and softmax kernels.
    k.dram_rounds += 1;
  }
  // Only threads with a vector of the row load one: a row shorter than a vector per thread (fewer
  // than 512 columns) keeps fewer in flight, and one vector per thread is all a thread can have.
  const double loading_threads = std::min(threads, std::ceil(hidden / kLayerNormVectorElements));
  k.bytes_in_flight = loading_threads * kLayerNormVectorElements * e * std::min(loads_in_flight, iterations);
  k.fixed_cycles = 2 * block_reduce_cycles(threads, gpu) +
                   iterations * kLayerNormVectorElements * chain_per_element +
                   (rms ? 0 : kLayerNormCombineCycles);
  return PlanOption{k.name, {k}, 0};
}

}  // namespace

std::vector<PlanOption> RowOpModel::plan(const wl::Op& op, const device::Device& gpu) const {
  const auto& r = std::get<wl::RowOp>(op);
  switch (r.kind) {
    case wl::RowOpKind::reduce:
      return {reduce_plan(r, gpu)};
    case wl::RowOpKind::softmax:
      return {softmax_plan(r, gpu)};
    case wl::RowOpKind::batchnorm:
      return {batch_norm_plan(r, gpu)};
    default:
      return {r.backward ? norm_backward_plan(r, gpu) : norm_plan(r, gpu)};
  }
}

}  // namespace gpucast::models
