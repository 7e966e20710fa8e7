#pragma once
// The once-per-kernel prologue of cuDNN's tensor-core convolution kernels, shared by the
// implicit-GEMM plans (conv_model.cpp) and the indexed few-channel kernel (conv_few_channel.cpp).
namespace gpucast::models {
// The prologue of cuDNN's tensor-core convolution kernels (sm90_xmma_fprop_implicit_gemm_*,
// sm80_xmma_fprop_implicit_gemm_* including the indexed ones, and the cutlass fprop kernels): before
// the first operand gather a thread block loads the precomputed filter-tap offset table and turns
// its output rows into (image, row, column) coordinates and input addresses, dependent steps that
// cuBLAS's TMA GEMM kernels do not have. Once per kernel, on top of the GEMM kernels' own startup.
// Fit on the dev split, H100 and H200 (second run): the conv kernels of at most one wave run a
// median 2.6 us (2.7 H100, 2.55 H200) longer than the GEMM timing gives them (conv2d-0329, -0362,
// -1110, -1119, -1125, -1133, -1138, -1144, -1159 and the sm80 kernel of -0348, their profiled
// kernel durations in validation/<gpu>/kernels.json), whatever their K loop (9 to 180 steps).
constexpr double kCudnnConvPrologueCycles = 5000;
}  // namespace gpucast::models
