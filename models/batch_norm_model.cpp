#include "models/batch_norm_model.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "models/helper_kernels.h"

namespace gpucast::models {
namespace {

std::int64_t last_pow2(std::int64_t v) {
  std::int64_t p = 1;
  while (p * 2 <= v) p *= 2;
  return p;
}

// Scalar loads a thread keeps outstanding in the transform's inner loop. The loop is unrolled over
// kParallelLoads positions, but each position's load sits behind a bounds check and the previous
// position's store, so fewer are in flight: an issue limit, which loads that hit the L2 do not
// shorten (KernelPlan::warm_keeps_rounds). Dev constant, fitted on the transforms that read X from
// DRAM in both data sets: the H100 ResNet-50 forward trace (batch 64; 25.7-103 MB: -8%..+7% with 2)
// and the training microbenchmark (validation/h100-sxm/batchnorm-train.json, 46-205 MB: -18%..+3%).
// 3 had been fitted with the warm transforms folded in (both sets: those whose X the L2 held ran
// 15-60% under their cold prediction, the cold ones 15-30% over it); their X now comes from the L2
// (the training statistics just read it; sim/warm_l2.h, the convolution just wrote it).
constexpr double kTransformLoadsInFlight = 2;
// Lane instructions per element: the load's address, the conversion to fp32, (x - mean) * invstd *
// weight + bias, the conversion back, the store's address and the loop's bounds checks (assumption).
constexpr double kTransformInstructionsPerElement = 12;
// Registers per thread of the transform (assumption; the traces report 32-40).
constexpr int kTransformRegisters = 32;
// batch_norm_calc_invstd: one fp32 value per channel, a vectorized pointwise kernel; rsqrt and the
// add about 3 FLOP-equivalents (assumption).
constexpr double kInvstdInstructionsPerChannel = 12;

// Training. Dev constants: the H100 microbenchmark of training batch norms on channels-last bf16
// activations at batches 8, 32 and 128 (validation/h100-sxm/batchnorm-train.json,
// calibration/runs/bench_batchnorm_train.py; the ResNet-50 training trace at batch 64 is held out).
// Loads a thread keeps outstanding in the statistics kernel's loop, effective: the source loads its
// kParallelLoads positions together before folding them into the Welford state, but with 4 in flight
// every one of the 42 dev cases ran 2.1-4x longer than predicted (median 2.7x), and with 1.5 still a
// median 1.5x: the kernel runs as if each position's load waited for the previous one (1). Why is not
// established (the transform, walking the same positions with the same launch, needs no such factor).
constexpr double kStatisticsLoadsInFlight = 1;
// Welford's update per element: the conversion, a division for the new mean, two FMAs, the count,
// and the loop's address arithmetic (assumption).
constexpr double kWelfordInstructionsPerElement = 20;
// The backward's reduction loads X and dY for each position (two tensors in flight), effective per
// tensor: 4 left the dev cases a median 26% short, 3 a median 15% short; 2.5 is the median fit.
constexpr double kBackwardReduceLoadsInFlight = 2.5;
// Sums of dY and dY * (X - mean) per element: two conversions, a subtraction, two FMAs, addresses.
constexpr double kBackwardReduceInstructionsPerElement = 12;
// dX = (dY - mean(dY) - (X - mean) * invstd^2 * mean(dY * (X - mean))) * invstd * weight.
constexpr double kBackwardElemtInstructionsPerElement = 16;
// Registers and shared memory of the two reductions (the profiled launches: 40 registers, 4-6 KB).
constexpr int kReductionRegisters = 40;
constexpr double kReductionSharedBytes = 6144;

}  // namespace

BatchNormLaunch batch_norm_launch(std::int64_t positions, std::int64_t channels, bool coop) {
  namespace L = batch_norm_library;
  positions = std::max<std::int64_t>(1, positions);
  channels = std::max<std::int64_t>(1, channels);
  BatchNormLaunch b;
  std::int64_t bx = std::min<std::int64_t>(last_pow2(channels), L::kOptimalTileW);
  const std::int64_t by = std::min<std::int64_t>(
      last_pow2((positions + L::kElementsPerThread - 1) / L::kElementsPerThread), L::kMaxBlockSize / bx);
  if (bx * by != L::kMaxBlockSize) bx = std::min<std::int64_t>(last_pow2(channels), L::kMaxBlockSize / by);
  b.block_x = int(bx);
  b.block_y = int(by);
  b.grid_x = double((channels + bx - 1) / bx);
  b.grid_y = double(std::min<std::int64_t>(
      (positions + by * L::kElementsPerThread - 1) / (by * L::kElementsPerThread), L::kMaxHBlock));
  if (coop && b.grid_y < L::kMinCoopHBlocks) b.grid_y = 1;
  const double inner_stride = double(by) * b.grid_y;
  b.loop_count = std::ceil(double(positions) / (inner_stride * L::kParallelLoads));
  return b;
}

namespace {

// "kernel (32x16 threads, 2x128 blocks)": the launch in the kernel's name, as the reports show it.
std::string launch_name(const std::string& kernel, const BatchNormLaunch& launch) {
  return kernel + " (" + std::to_string(launch.block_x) + "x" + std::to_string(launch.block_y) +
         " threads, " + std::to_string(int(launch.grid_x)) + "x" + std::to_string(int(launch.grid_y)) +
         " blocks)";
}

// A transform pass over [positions, channels] in the batch norm's launch: every thread walks its
// channel down the positions, `inputs` tensors read and one written per element, a few loads in
// flight at a time (the inference transform and the backward's dX kernel).
KernelPlan transform_kernel(const std::string& name, const wl::RowOp& r, int inputs, double loads_in_flight,
                            double instructions_per_element, bool input_in_l2 = false) {
  const double e = bytes_per_element(r.dtype);
  const BatchNormLaunch launch = batch_norm_launch(r.rows, r.cols);
  const double per_block = double(r.rows) * double(r.cols) / launch.blocks();
  KernelPlan k;
  k.name = launch_name(name, launch);
  k.blocks = launch.blocks();
  k.threads = launch.threads();
  k.registers = kTransformRegisters;
  k.simt_instructions = instructions_per_element * per_block;
  k.dram_bytes = (inputs + 1) * e * per_block;
  k.dram_write_bytes = e * per_block;
  k.l2_bytes = k.dram_bytes + 4 * 4.0 * k.threads;  // the channel's statistics once per thread
  const double loads = launch.loop_count * batch_norm_library::kParallelLoads * inputs;
  k.dram_rounds = 1 + std::ceil(loads / (loads_in_flight * inputs));  // the statistics, then the positions
  k.bytes_in_flight = k.threads * loads_in_flight * inputs * e;
  // Its rounds are the effective issue limit above: loads that hit the L2 leave them as long.
  k.warm_keeps_rounds = true;
  // Reading a tensor the L2 holds, only its stores reach DRAM.
  if (input_in_l2) k.dram_bytes = k.dram_write_bytes;
  return k;
}

// A cooperative per-channel reduction over the positions (the training statistics, the backward's
// sums): `inputs` tensors read once; partial results through the staging buffer when the grid has
// several blocks along the positions, combined by the last block.
KernelPlan reduction_kernel(const std::string& name, const wl::RowOp& r, int inputs, double loads_in_flight,
                            double instructions_per_element, const device::Device& gpu) {
  const double e = bytes_per_element(r.dtype);
  const BatchNormLaunch launch = batch_norm_launch(r.rows, r.cols, true);
  const double per_block = double(r.rows) * double(r.cols) / launch.blocks();
  KernelPlan k;
  k.name = launch_name(name, launch);
  k.blocks = launch.blocks();
  k.threads = launch.threads();
  k.registers = kReductionRegisters;
  k.shared_bytes = kReductionSharedBytes;
  k.simt_instructions = instructions_per_element * per_block;
  k.dram_bytes = inputs * e * per_block;
  k.l2_bytes = k.dram_bytes;
  const double loads = launch.loop_count * batch_norm_library::kParallelLoads;
  k.dram_rounds = std::ceil(loads / loads_in_flight);
  k.bytes_in_flight = k.threads * loads_in_flight * inputs * e;
  // The block's vertical merge in shared memory; with a grid reduction, the staging writes, the
  // semaphore and the last block's pass over every partial (L2).
  k.fixed_cycles = 2 * block_reduce_cycles(k.threads, gpu);
  if (launch.grid_y > 1) k.l2_rounds = 2 + std::ceil(launch.grid_y / launch.block_y);
  return k;
}

PlanOption training_plan(const wl::RowOp& r, const device::Device& gpu) {
  const double channels = double(r.cols);
  const bool grid_reduction = batch_norm_launch(r.rows, r.cols, true).grid_y > 1;
  std::vector<KernelPlan> kernels;
  if (grid_reduction)
    kernels.push_back(streaming_kernel("fill (semaphores)", channels, 0, 4 * channels, 1, gpu));
  if (!r.backward) {
    kernels.push_back(reduction_kernel("batch_norm_collect_statistics_channels_last", r, 1,
                                       kStatisticsLoadsInFlight, kWelfordInstructionsPerElement, gpu));
    // The running mean and variance: one block over the channels
    // (unrolled_elementwise_kernel_for_multi_outputs).
    kernels.push_back(streaming_kernel("running statistics update", channels, 4 * 4.0 * channels,
                                       2 * 4.0 * channels, kInvstdInstructionsPerChannel, gpu, channels));
    // The statistics kernel just read X: the transform finds it in the L2 when X and the transform's
    // output fit the reuse share together (sim/warm_l2.h's LRU bound: its stores allocate lines that
    // evict X's first lines before it reads them otherwise).
    const double x_bytes = double(r.rows) * double(r.cols) * bytes_per_element(r.dtype);
    const bool x_in_l2 = 2 * x_bytes <= gpu.l2_reuse_bytes();
    kernels.push_back(transform_kernel("batch_norm_transform_input_channels_last", r, 1,
                                       kTransformLoadsInFlight, kTransformInstructionsPerElement, x_in_l2));
    return PlanOption{"batchnorm channels-last, training", kernels, 0};
  }
  kernels.push_back(reduction_kernel("batch_norm_backward_reduce_channels_last", r, 2,
                                     kBackwardReduceLoadsInFlight, kBackwardReduceInstructionsPerElement,
                                     gpu));
  // The reduction just read X and dY: dX finds them in the L2 when they and dX fit the reuse share.
  const double x_bytes = double(r.rows) * double(r.cols) * bytes_per_element(r.dtype);
  const bool inputs_in_l2 = 3 * x_bytes <= gpu.l2_reuse_bytes();
  kernels.push_back(transform_kernel("batch_norm_backward_elemt_channels_last", r, 2, kTransformLoadsInFlight,
                                     kBackwardElemtInstructionsPerElement, inputs_in_l2));
  return PlanOption{"batchnorm channels-last, backward", kernels, 0};
}

}  // namespace

PlanOption batch_norm_plan(const wl::RowOp& r, const device::Device& gpu) {
  if (r.training || r.backward) return training_plan(r, gpu);
  const double channels = double(r.cols);
  // The per-channel statistics: 1/sqrt(var + eps), fp32 in and out.
  KernelPlan invstd = streaming_kernel("batch_norm_calc_invstd", channels, 4 * channels, 4 * channels,
                                       kInvstdInstructionsPerChannel, gpu);
  // Each element read and written once, kTransformLoadsInFlight loads at a time.
  KernelPlan k = transform_kernel("batch_norm_transform_input_channels_last", r, 1, kTransformLoadsInFlight,
                                  kTransformInstructionsPerElement);
  return PlanOption{"batchnorm channels-last", {invstd, k}, 0};
}

}  // namespace gpucast::models
