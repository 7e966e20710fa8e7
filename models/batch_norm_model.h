#pragma once
// Inference batch normalization of a channels-last activation as PyTorch runs it: a tiny kernel
// forming each channel's 1/sqrt(var + eps) (batch_norm_calc_invstd), then
// batch_norm_transform_input_channels_last_kernel over [N*H*W, C]. The transform's launch is fixed
// by the shape, not by the GPU (flexible_launch_configs: a 512-thread block of 32 channels x 16
// positions, at most 128 blocks along the positions), so small-channel layers run few blocks, each
// thread walking its channel down the positions a few scalar loads at a time: memory-level
// parallelism, not a full-rate stream, sets its time.
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
}  // namespace batch_norm_library

struct BatchNormLaunch {
  int block_x = 1, block_y = 1;  // channels x positions per block
  double grid_x = 1, grid_y = 1;
  double loop_count = 1;  // outer iterations of a thread, kParallelLoads positions each
  [[nodiscard]] double blocks() const { return grid_x * grid_y; }
  [[nodiscard]] int threads() const { return block_x * block_y; }
};

// flexible_launch_configs(reduction = positions, stride = channels).
[[nodiscard]] BatchNormLaunch batch_norm_launch(std::int64_t positions, std::int64_t channels);

// The two kernels of an inference batch norm (wl::RowOp of kind batchnorm).
[[nodiscard]] PlanOption batch_norm_plan(const wl::RowOp& r, const device::Device& gpu);

}  // namespace gpucast::models
