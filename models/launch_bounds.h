#pragma once
// A kernel compiled with __launch_bounds__(threads, min_blocks_per_sm) gets at most as many registers
// per thread as let min_blocks_per_sm of its blocks share an SM's register file (nvcc; the CUDA
// occupancy calculator's allocation step). The memory-efficient attention kernels (PyTorch's
// mem_eff_attention, forward and backward) state their bounds as warps per SM.
#include <algorithm>
#include <cmath>

namespace gpucast::models {

// Registers in an SM's register file, sm70 and later (CUDA programming guide, compute capabilities
// table; library/hardware fact), and the step a thread's allocation rounds down to.
constexpr double kLaunchBoundsRegisterFile = 65536;
constexpr int kLaunchBoundsRegisterStep = 8;

// Registers per thread for a block of `threads` whose launch bounds ask for `warps_per_sm` warps on
// each SM (at least one block), at most `max_registers` (what the kernel would use unbounded).
[[nodiscard]] inline int launch_bounds_registers(double warps_per_sm, int threads, double warp_size,
                                                 int max_registers) {
  const double min_blocks = std::max(1.0, std::floor(warps_per_sm * warp_size / threads));
  const int cap = static_cast<int>(kLaunchBoundsRegisterFile / (min_blocks * threads));
  return std::min(max_registers, cap / kLaunchBoundsRegisterStep * kLaunchBoundsRegisterStep);
}

}  // namespace gpucast::models
