#pragma once
// Batch normalization of a channels-last activation as PyTorch runs it. Inference: a tiny kernel
// forming each channel's 1/sqrt(var + eps) (batch_norm_calc_invstd), then
// batch_norm_transform_input_channels_last_kernel over [N*H*W, C]. The transform's launch is fixed
// by the shape, not by the GPU (flexible_launch_configs: a 512-thread block of 32 channels x 16
// positions, at most 128 blocks along the positions), so small-channel layers run few blocks, each
// thread walking its channel down the positions a few scalar loads at a time: memory-level
// parallelism, not a full-rate stream, sets its time.
//
// Training (batch statistics) and its backward use the same launch with the channels-last kernels
// of Normalization.cuh: batch_norm_collect_statistics_channels_last_kernel (Welford over each
// channel's positions), a one-block update of the running statistics, then the transform; the
// backward batch_norm_backward_reduce_channels_last_kernel (per-channel sums of dY and dY * (X -
// mean), which give dweight and dbias) then batch_norm_backward_elemt_channels_last_kernel (dX).
// The two reductions launch cooperatively: more than one block along the positions only when the
// grid would have at least kMinCoopHBlocks of them, then each block's partial result goes through a
// staging buffer and the last block to finish (counted on semaphores zeroed by a fill kernel)
// combines them; below that one block walks all of its channels' positions.
#include <cstdint>

#include "device/device.h"
#include "models/kernel_plan.h"
#include "workloads/op.h"

namespace gpucast::models {

// Library facts of aten/src/ATen/native/cuda/Normalization.cuh (PyTorch 2.x).
namespace batch_norm_library {
constexpr int kMaxBlockSize = 512;      // MAX_BLOCK_SIZE: threads per block
constexpr int kOptimalTileW = 32;       // OPTIMAL_TILE_W: channels per block at most
constexpr int kElementsPerThread = 16;  // ELEMENTS_PER_THREAD: positions a thread aims to cover
constexpr int kMaxHBlock = 128;         // MAX_H_BLOCK: blocks along the positions at most
constexpr int kParallelLoads = 4;       // PARALLEL_LOADS: positions per inner (unrolled) loop
// flexible_launch_configs(..., coop_flag = true): "it's not worth having a grid reduction if the
// reduction dimension is not big enough": fewer than 8 blocks along the positions become one.
constexpr int kMinCoopHBlocks = 8;
}  // namespace batch_norm_library

struct BatchNormLaunch {
  int block_x = 1, block_y = 1;  // channels x positions per block
  double grid_x = 1, grid_y = 1;
  double loop_count = 1;  // outer iterations of a thread, kParallelLoads positions each
  [[nodiscard]] double blocks() const { return grid_x * grid_y; }
  [[nodiscard]] int threads() const { return block_x * block_y; }
};

// flexible_launch_configs(reduction = positions, stride = channels, coop_flag): the reductions of
// training launch cooperatively (kMinCoopHBlocks), the transforms do not.
[[nodiscard]] BatchNormLaunch batch_norm_launch(std::int64_t positions, std::int64_t channels,
                                                bool coop = false);

// The kernels of a batch norm (wl::RowOp of kind batchnorm): inference, training (r.training) or
// the training backward (r.backward).
[[nodiscard]] PlanOption batch_norm_plan(const wl::RowOp& r, const device::Device& gpu);

}  // namespace gpucast::models
