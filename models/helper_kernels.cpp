#include "models/helper_kernels.h"

#include <algorithm>
#include <cmath>

namespace gpucast::models {

namespace {
// PyTorch's vectorized elementwise kernels: 128 threads per block, one 16-byte vector per input
// per thread, at most 32 registers (aten/src/ATen/native/cuda/CUDALoops.cuh; library fact).
constexpr int kStreamThreads = 128;
constexpr double kVectorBytes = 16;
constexpr int kStreamRegisters = 32;
// Index math and the store's completion per block (cycles; dev half of the H200 run).
constexpr double kStreamFixedCycles = 200;
}  // namespace

KernelPlan streaming_kernel(const std::string& name, double elements, double read_bytes, double write_bytes,
                            double instructions_per_element, const device::Device& gpu, double elements_per_thread) {
  (void)gpu;
  const double bytes_per_element_read = elements > 0 ? read_bytes / elements : 0;
  // Each thread moves one 16-byte vector per input: 4 fp32 or 8 bf16 elements.
  const double per_thread =
      elements_per_thread > 0 ? elements_per_thread
                              : std::max(1.0, std::floor(kVectorBytes / std::max(1.0, std::min(kVectorBytes, bytes_per_element_read))));
  const double per_block = kStreamThreads * per_thread;
  KernelPlan k;
  k.name = name;
  k.blocks = std::max(1.0, std::ceil(elements / per_block));
  k.threads = kStreamThreads;
  k.registers = kStreamRegisters;
  k.pipe = Pipe::none;
  const double in_block = std::min(elements, per_block);
  k.simt_instructions = instructions_per_element * in_block;
  k.dram_bytes = (read_bytes + write_bytes) / k.blocks;
  k.dram_write_bytes = write_bytes / k.blocks;
  k.l2_bytes = k.dram_bytes;
  k.dram_rounds = read_bytes > 0 ? 1 : 0;
  // Every thread issues all of its loads before using them.
  k.bytes_in_flight = read_bytes / k.blocks;
  k.fixed_cycles = kStreamFixedCycles;
  k.reads_dram = read_bytes > 0;
  return k;
}

KernelPlan memset_kernel(const device::Device& gpu) {
  KernelPlan k = streaming_kernel("workspace memset", 1024, 0, 4096, 2, gpu, 8);
  k.reads_dram = false;
  return k;
}

}  // namespace gpucast::models
