#include "models/row_models.h"

#include <algorithm>
#include <cmath>

#include "models/helper_kernels.h"

namespace gpucast::models {
namespace {

double last_pow2(double v) { return std::pow(2.0, std::floor(std::log2(std::max(1.0, v)))); }
double next_pow2(double v) { return std::pow(2.0, std::ceil(std::log2(std::max(1.0, v)))); }

// A block-wide reduction: warp shuffles, shared memory and two barriers (cycles).
double block_reduce_cycles(double threads, const device::Device& gpu) {
  return 150 + 8 * (threads / gpu.warp_size()) + 5 * 25;
}
// A warp-wide butterfly reduction (cycles).
constexpr double kWarpReduceCycles = 5 * 25;
// PyTorch's softmax kernels compute an accurate exp twice per element (once for the sum, once for
// the output), an IEEE division and 64-bit index arithmetic: about this many SIMT lane
// instructions per element in the block kernels; the warp kernel keeps rows in registers and
// shuffles instead of using shared memory, about half that. Set from the dev half of the H200
// validation run.
constexpr double kSoftmaxRegInstructionsPerElement = 125;  // scalar loads, row in registers
constexpr double kSoftmaxInstructionsPerElement = 90;      // vectorized (ILP) passes
constexpr double kWarpSoftmaxInstructionsPerElement = 65;

// Blocks of `threads` threads using `registers` each that one SM holds at once (the device's
// occupancy rule; at least one).
double resident_blocks_per_sm(double threads, double registers, const device::Device& gpu) {
  const device::BlockResources block{static_cast<int>(threads), static_cast<int>(registers), 0, 0};
  return std::max(1, gpu.occupancy(block).blocks_per_sm);
}

// Share of a second pass over rows that still finds them in L2. While the resident blocks read
// their rows and reread them, the rows they write pass through the L2 as well: the pass hits
// when twice the resident rows fit.
double reread_hit_fraction(double resident_rows, double row_bytes, const device::Device& gpu) {
  return gpu.l2_hit_fraction(2 * resident_rows * row_bytes);
}

PlanOption reduce_plan(const wl::RowOp& r, const device::Device& gpu) {
  const double rows = static_cast<double>(r.rows);
  const double cols = static_cast<double>(r.cols);
  const double e = bytes_per_element(r.dtype);
  // setReduceConfig (ATen Reduce.cuh): vectorize 4-wide along the reduced, contiguous dimension.
  const bool vectorize = cols > 128;
  const double vec = vectorize ? 4 : 1;
  const double dim0 = std::ceil(cols / vec);
  const double max_threads = 512;
  const double dim0_pow2 = dim0 < max_threads ? last_pow2(dim0) : max_threads;
  const double dim1_pow2 = rows < max_threads ? last_pow2(rows) : max_threads;
  double bw = std::min(dim0_pow2, 32.0);
  const double bh = std::min(dim1_pow2, max_threads / bw);
  bw = std::min(dim0_pow2, max_threads / bh);
  const double threads = bw * bh;
  double values_per_thread = std::ceil(dim0 / bw);
  double rows_per_block = bh;
  // Many values per thread: the block's warps split the row instead of taking separate rows.
  if (values_per_thread >= bh * 16 || values_per_thread >= 256) {
    values_per_thread = std::ceil(values_per_thread / bh);
    rows_per_block = 1;
  }
  double ctas_per_output = 1;
  const double target_grid = gpu.sms() * std::floor(gpu.sm_limits().max_threads / threads);
  const double grid = std::ceil(rows / rows_per_block);
  if (rows_per_block == 1 && values_per_thread >= 16 && grid <= target_grid) {
    const double by_grid = std::ceil(target_grid / grid);
    const double by_min_work = std::ceil(values_per_thread / 16);
    const double by_max_work = std::ceil(values_per_thread / 256);
    ctas_per_output = std::max(std::min(by_grid, by_min_work), by_max_work);
    values_per_thread = std::ceil(values_per_thread / ctas_per_output);
  }
  KernelPlan k;
  k.name = "reduce_kernel" + std::string(ctas_per_output > 1 ? " (split across blocks)" : "");
  k.blocks = grid * ctas_per_output;
  k.threads = static_cast<int>(threads);
  k.registers = 40;
  const double elements_per_block = rows * cols / k.blocks;
  k.simt_instructions = 3 * elements_per_block;
  k.dram_bytes = (rows * cols * e + rows * e) / k.blocks;
  k.dram_write_bytes = rows * e / k.blocks;
  k.l2_bytes = k.dram_bytes;
  // The vectorized loop loads one vector and folds it into the accumulators before the next
  // iteration's load issues (in-order issue, no unrolling): one DRAM round trip per value.
  k.dram_rounds = values_per_thread;
  k.bytes_in_flight = threads * vec * e;
  k.fixed_cycles = block_reduce_cycles(threads, gpu) + (ctas_per_output > 1 ? 1500 : 0);
  PlanOption option{k.name, {}, 0};
  if (ctas_per_output > 1) option.kernels.push_back(memset_kernel(gpu));
  option.kernels.push_back(k);
  return option;
}

PlanOption softmax_plan(const wl::RowOp& r, const device::Device& gpu) {
  const double rows = static_cast<double>(r.rows);
  const double cols = static_cast<double>(r.cols);
  const double e = bytes_per_element(r.dtype);
  const double io = rows * cols * 2 * e;
  KernelPlan k;
  double reread_bytes = 0;  // per block, DRAM rereads of rows the L2 could not keep
  k.sfu_ops = 0;
  if (cols <= 2048 && cols * e <= 8192) {
    // softmax_warp_forward: a warp owns a row (two when short), held entirely in registers.
    const double padded = next_pow2(cols);
    const double rows_per_warp = padded <= 128 ? 2 : 1;
    const double rows_per_block = 4 * rows_per_warp;
    k.name = "softmax_warp_forward";
    k.blocks = std::ceil(rows / rows_per_block);
    k.threads = 128;
    k.registers = static_cast<int>(std::min(255.0, 24 + 1.5 * rows_per_warp * padded / gpu.warp_size()));
    const double elements = rows_per_block * padded;
    k.simt_instructions = kWarpSoftmaxInstructionsPerElement * rows_per_block * cols;
    k.sfu_ops = elements;
    k.dram_rounds = 1;
    k.bytes_in_flight = rows_per_block * cols * e;  // the whole row is loaded into registers
    k.fixed_cycles = 2 * kWarpReduceCycles + 100;
  } else {
    // Block softmax, one block per row (SoftMax.cu): threads = min(cols, 1024) rounded to warps.
    const double threads = std::ceil(std::min(cols, 1024.0) / gpu.warp_size()) * gpu.warp_size();
    const double ilp = 16 / e;
    const double per_thread = std::ceil(cols / threads);
    const double loads_per_thread = std::ceil(cols / (threads * ilp));
    k.blocks = rows;
    k.threads = static_cast<int>(threads);
    k.registers = 40;
    k.simt_instructions = kSoftmaxInstructionsPerElement * cols;
    k.sfu_ops = 2 * cols;
    const double two_reductions = 2 * block_reduce_cycles(threads, gpu);
    k.bytes_in_flight = threads * std::min(per_thread, ilp) * e;
    if (per_thread < 10) {
      k.name = "cunn_SoftMaxForwardReg";  // the row stays in registers: one read, one write
      k.simt_instructions = kSoftmaxRegInstructionsPerElement * cols;
      k.dram_rounds = 1;
      k.fixed_cycles = two_reductions + 200;
    } else if (cols * e < 48 * 1024) {
      k.name = "cunn_SoftMaxForwardSmem";  // the row is staged in shared memory
      k.shared_bytes = cols * e;
      k.dram_rounds = loads_per_thread;
      k.fixed_cycles = two_reductions + 2 * loads_per_thread * 40;
    } else {
      k.name = "cunn_SoftMaxForward";  // three passes: max, sum of exp, write; rereads hit L2
      k.dram_rounds = loads_per_thread;
      k.l2_rounds = 2 * loads_per_thread;
      k.fixed_cycles = two_reductions;
      k.l2_bytes = 3 * cols * e + cols * e;
      // Rows too long for the L2 to hold all resident ones: the two rereads go to DRAM.
      const double resident_rows = std::min(rows, gpu.sms() * resident_blocks_per_sm(threads, k.registers, gpu));
      reread_bytes = 2 * (1 - reread_hit_fraction(resident_rows, cols * e, gpu)) * cols * e;
    }
  }
  k.dram_bytes = io / k.blocks + reread_bytes;
  k.dram_write_bytes = io / 2 / k.blocks;
  k.l2_bytes = std::max(k.l2_bytes, k.dram_bytes);
  return PlanOption{k.name, {k}, 0};
}

PlanOption norm_plan(const wl::RowOp& r, const device::Device& gpu) {
  const double rows = static_cast<double>(r.rows);
  const double hidden = static_cast<double>(r.cols);
  const double e = bytes_per_element(r.dtype);
  const bool rms = r.kind == wl::RowOpKind::rmsnorm;
  // vectorized_layer_norm_kernel: 128 threads (4 warps) per row, 4-element vector loads; pass one
  // accumulates Welford statistics (or the sum of squares for RMS), pass two rereads the row
  // (L1/L2 hit), applies weight (and bias) and writes.
  const double threads = 128;
  const double iterations = std::ceil(hidden / (4 * threads));
  KernelPlan k;
  k.name = std::string("vectorized_layer_norm_kernel") + (rms ? " (rms)" : "");
  k.blocks = rows;
  k.threads = static_cast<int>(threads);
  k.registers = 48;
  const double row_bytes = hidden * e;
  const double resident_rows = std::min(rows, gpu.sms() * resident_blocks_per_sm(threads, k.registers, gpu));
  // Many long rows in flight push the row out of L2 before pass two rereads it.
  const double reread_miss = 1 - reread_hit_fraction(resident_rows, row_bytes, gpu);
  const double params = hidden * e * (rms ? 1 : 2);  // weight (and bias), shared by all rows via L2
  k.dram_bytes = (rows * row_bytes * (2 + reread_miss) + params + rows * 8) / rows;
  k.dram_write_bytes = row_bytes + 8;
  k.l2_bytes = 3 * row_bytes + params;
  k.simt_instructions = (rms ? 10 : 18) * hidden;
  // Welford's running mean divides per element: a dependent chain of ~40 cycles per element per
  // thread; the sum of squares is one FMA.
  const double chain_per_element = rms ? 4 : 40;
  k.dram_rounds = iterations;
  k.l2_rounds = iterations;
  // All rows in one wave: pass two's weight (and bias) loads are the first touch of those
  // vectors, so each of its iterations waits a DRAM round trip, not an L2 hit.
  if (rows <= resident_rows) {
    k.dram_rounds += iterations;
    k.l2_rounds = 0;
  }
  k.bytes_in_flight = threads * 4 * e;  // one 4-element vector per thread
  k.fixed_cycles = 2 * block_reduce_cycles(threads, gpu) + iterations * 4 * chain_per_element;
  return PlanOption{k.name, {k}, 0};
}

}  // namespace

std::vector<PlanOption> RowOpModel::plan(const wl::Op& op, const device::Device& gpu) const {
  const auto& r = std::get<wl::RowOp>(op);
  switch (r.kind) {
    case wl::RowOpKind::reduce: return {reduce_plan(r, gpu)};
    case wl::RowOpKind::softmax: return {softmax_plan(r, gpu)};
    default: return {norm_plan(r, gpu)};
  }
}

}  // namespace gpucast::models
