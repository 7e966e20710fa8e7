#pragma once
// Small kernels several op models share: PyTorch-style vectorized streaming kernels (pointwise
// maps, split-K reductions, padding) and the workspace memsets libraries launch.
#include <string>

#include "device/device.h"
#include "models/kernel_plan.h"

namespace gpucast::models {

// PyTorch's vectorized kernels load 16-byte vectors (aligned_vector / float4: CUDALoops.cuh,
// SoftMax.cu's ILP, layer_norm_kernel.cu); library fact.
constexpr double kVectorBytes = 16;
// A row's saved statistics (mean and rstd, two fp32) that the norm kernels read or write per row
// (layer_norm_kernel.cu); library fact.
constexpr double kRowStatsBytes = 8;
// An embedding or gather index is int64 (PyTorch's default index dtype); library fact.
constexpr double kIndexBytes = 8;

// One warp-wide butterfly reduction: log2(warp size) shuffle steps (cycles).
[[nodiscard]] double warp_reduce_cycles(const device::Device& gpu);
// A block-wide reduction: warp shuffles, shared memory and two barriers (cycles).
[[nodiscard]] double block_reduce_cycles(double threads, const device::Device& gpu);

// A grid-wide pointwise pass: 128-thread blocks, each thread one 16-byte vector per input in
// flight, one DRAM round trip per element group. `instructions_per_element` counts SIMT lane
// instructions (math, conversions, address arithmetic).
[[nodiscard]] KernelPlan streaming_kernel(const std::string& name, double elements, double read_bytes,
                                          double write_bytes, double instructions_per_element,
                                          const device::Device& gpu, double elements_per_thread = 0);

// Elements one thread of PyTorch's vectorized_elementwise_kernel handles (elems_per_thread<io_size>,
// with `io_bytes` the element sizes of its inputs and output added up), in 16-byte vectors.
[[nodiscard]] double vectorized_elements_per_thread(double io_bytes);

// cudaMemsetAsync of a small workspace (split-K semaphores, attention accumulators).
[[nodiscard]] KernelPlan memset_kernel(const device::Device& gpu);

}  // namespace gpucast::models
