#pragma once
// How many tensor reads PyTorch's softmax / log_softmax backward makes per element (SoftMax.cu,
// host_softmax_backward; library fact). Rows of up to kWarpSoftmaxBackwardMaxColumns run
// softmax_warp_backward, which holds a row in one warp's registers: the gradient and the saved output
// read once. Longer rows run cunn_SoftMaxBackward, a block per row that reads the gradient twice (its
// row sum, then the write loop) and the output once. The trace importer and the training-step
// generator (cross-entropy's backward) both cost the backward this way.
namespace gpucast::wl {

inline constexpr double kWarpSoftmaxBackwardMaxColumns = 1024;

[[nodiscard]] constexpr int softmax_backward_reads(double cols) {
  return cols > kWarpSoftmaxBackwardMaxColumns ? 3 : 2;
}

}  // namespace gpucast::wl
