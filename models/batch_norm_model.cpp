#include "models/batch_norm_model.h"

#include <algorithm>
#include <cmath>

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
// position's store, so fewer are in flight. Dev constant: the H100 ResNet-50 forward trace (batch
// 64, channels 64-2048, 7x7 to 112x112; 1.5-3.0 TB/s): 2 fits the long-walking grids (56x56 and
// 112x112, 25-98 loop iterations) within 2% but leaves the short ones (4-7 iterations) 14-37% long;
// 3 spreads the errors over -18%..+18% and gives the lower per-kernel MAPE (10.6% against 11.1%);
// 4 (every unrolled load in flight) 11.0%.
constexpr double kTransformLoadsInFlight = 3;
// Lane instructions per element: the load's address, the conversion to fp32, (x - mean) * invstd *
// weight + bias, the conversion back, the store's address and the loop's bounds checks (assumption).
constexpr double kTransformInstructionsPerElement = 12;
// Registers per thread of the transform (assumption; the traces report 32-40).
constexpr int kTransformRegisters = 32;
// batch_norm_calc_invstd: one fp32 value per channel, a vectorized pointwise kernel; rsqrt and the
// add about 3 FLOP-equivalents (assumption).
constexpr double kInvstdInstructionsPerChannel = 12;

}  // namespace

BatchNormLaunch batch_norm_launch(std::int64_t positions, std::int64_t channels) {
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
  const double inner_stride = double(by) * b.grid_y;
  b.loop_count = std::ceil(double(positions) / (inner_stride * L::kParallelLoads));
  return b;
}

PlanOption batch_norm_plan(const wl::RowOp& r, const device::Device& gpu) {
  const double e = bytes_per_element(r.dtype);
  const double positions = double(r.rows), channels = double(r.cols);
  const BatchNormLaunch launch = batch_norm_launch(r.rows, r.cols);
  const double blocks = launch.blocks();
  const double elements = positions * channels;
  const double per_block = elements / blocks;

  // The per-channel statistics: 1/sqrt(var + eps), fp32 in and out.
  KernelPlan invstd = streaming_kernel("batch_norm_calc_invstd", channels, 4 * channels, 4 * channels,
                                       kInvstdInstructionsPerChannel, gpu);

  KernelPlan k;
  k.name = "batch_norm_transform_input_channels_last (" + std::to_string(launch.block_x) + "x" +
           std::to_string(launch.block_y) + " threads, " + std::to_string(int(launch.grid_x)) + "x" +
           std::to_string(int(launch.grid_y)) + " blocks)";
  k.blocks = blocks;
  k.threads = launch.threads();
  k.registers = kTransformRegisters;
  k.simt_instructions = kTransformInstructionsPerElement * per_block;
  // Each element read and written once; the channel's four statistics once per thread (L2).
  k.dram_bytes = 2 * e * per_block;
  k.dram_write_bytes = e * per_block;
  k.l2_bytes = k.dram_bytes + 4 * 4.0 * k.threads;
  // A thread's loads: loop_count x kParallelLoads positions, kTransformLoadsInFlight at a time.
  const double loads = launch.loop_count * batch_norm_library::kParallelLoads;
  k.dram_rounds = 1 + std::ceil(loads / kTransformLoadsInFlight);  // the statistics, then the positions
  k.bytes_in_flight = k.threads * kTransformLoadsInFlight * e;
  k.fixed_cycles = 0;
  return PlanOption{"batchnorm channels-last", {invstd, k}, 0};
}

}  // namespace gpucast::models
