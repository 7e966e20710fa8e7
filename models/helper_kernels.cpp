#include "models/helper_kernels.h"

#include <algorithm>
#include <cmath>

namespace gpucast::models {

namespace {
// PyTorch's vectorized elementwise kernels: 128 threads per block, one 16-byte vector per input
// per thread, at most 32 registers (aten/src/ATen/native/cuda/CUDALoops.cuh; library fact).
constexpr int kStreamThreads = 128;
constexpr int kStreamRegisters = 32;
// Index math and the store's completion per block (cycles; dev half of the H200 run).
constexpr double kStreamFixedCycles = 200;
// One shuffle-and-add step of a warp reduction: the shuffle's latency and the dependent add (cycles;
// assumption).
constexpr double kShuffleStepCycles = 25;
// A block reduction's fixed part: the shared-memory exchange and its two barriers (cycles;
// assumption).
constexpr double kBlockReduceFixedCycles = 150;
// Each warp of the block adds a shared-memory slot to the final fold (cycles per warp; assumption).
constexpr double kBlockReduceCyclesPerWarp = 8;
// The workspace memset libraries launch before split reductions: 1,024 elements over 4 KiB (a
// semaphore per output), 8 elements a thread, 2 lane instructions each (assumption).
constexpr double kMemsetElements = 1024;
constexpr double kMemsetBytes = 4096;
constexpr double kMemsetInstructionsPerElement = 2;
constexpr double kMemsetElementsPerThread = 8;
// vectorized_elementwise_kernel's thread work: elems_per_thread<io_size>() is 16 where the inputs'
// and the output's element sizes add up to one byte, else 8 (aten/src/ATen/native/cuda/CUDALoops.cuh,
// CUDA builds; library fact). A 16-bit fill (zero_) thus writes 2 KB per 128-thread block.
constexpr double kVectorizedElementsPerThread = 8;
constexpr double kVectorizedByteElementsPerThread = 16;
}  // namespace

double vectorized_elements_per_thread(double io_bytes) {
  return io_bytes <= 1 ? kVectorizedByteElementsPerThread : kVectorizedElementsPerThread;
}

double warp_reduce_cycles(const device::Device& gpu) {
  return std::log2(static_cast<double>(gpu.warp_size())) * kShuffleStepCycles;
}

double block_reduce_cycles(double threads, const device::Device& gpu) {
  return kBlockReduceFixedCycles + kBlockReduceCyclesPerWarp * (threads / gpu.warp_size()) +
         warp_reduce_cycles(gpu);
}

KernelPlan streaming_kernel(const std::string& name, double elements, double read_bytes, double write_bytes,
                            double instructions_per_element, const device::Device& gpu,
                            double elements_per_thread) {
  (void)gpu;
  const double bytes_per_element_read = elements > 0 ? read_bytes / elements : 0;
  // Each thread moves one 16-byte vector per input: 4 fp32 or 8 bf16 elements.
  const double per_thread =
      elements_per_thread > 0
          ? elements_per_thread
          : std::max(1.0, std::floor(kVectorBytes /
                                     std::max(1.0, std::min(kVectorBytes, bytes_per_element_read))));
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
  KernelPlan k = streaming_kernel("workspace memset", kMemsetElements, 0, kMemsetBytes,
                                  kMemsetInstructionsPerElement, gpu, kMemsetElementsPerThread);
  k.reads_dram = false;
  return k;
}

}  // namespace gpucast::models
