#pragma once
// Small kernels several op models share: PyTorch-style vectorized streaming kernels (pointwise
// maps, split-K reductions, padding) and the workspace memsets libraries launch.
#include <string>

#include "device/device.h"
#include "models/kernel_plan.h"

namespace gpucast::models {

// A grid-wide pointwise pass: 128-thread blocks, each thread one 16-byte vector per input in
// flight, one DRAM round trip per element group. `instructions_per_element` counts SIMT lane
// instructions (math, conversions, address arithmetic).
[[nodiscard]] KernelPlan streaming_kernel(const std::string& name, double elements, double read_bytes,
                                          double write_bytes, double instructions_per_element,
                                          const device::Device& gpu, double elements_per_thread = 0);

// cudaMemsetAsync of a small workspace (split-K semaphores, attention accumulators).
[[nodiscard]] KernelPlan memset_kernel(const device::Device& gpu);

}  // namespace gpucast::models
