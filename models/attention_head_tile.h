#pragma once
// cuDNN's SDPA kernels on Hopper are compiled for a head-dimension tile of 64, 128 or 256; other head
// sizes run the next larger tile, computing on zero-padded columns (library fact: the profiles' kernel
// names, dev and calibration, H100 and H200: head_dim 64 runs ..._64x128x64 forward and ..._64x64x64
// backward, 80 and 96 run ..._64x128x128, 128 the x128 kernels, 256 ..._64x128x256).
namespace gpucast::models {

constexpr double kCudnnHeadTiles[] = {64, 128, 256};

// The head dimension a cuDNN warpgroup kernel computes with: the smallest tile that holds `head_dim`
// (beyond the largest tile, the head dimension itself).
[[nodiscard]] inline double cudnn_head_dim_tile(double head_dim) {
  for (double t : kCudnnHeadTiles)
    if (head_dim <= t) return t;
  return head_dim;
}

}  // namespace gpucast::models
