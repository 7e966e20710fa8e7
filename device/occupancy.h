#pragma once
// How occupancy works: how many blocks of a kernel one SM holds at once. One rule for every op
// model and the kernel timer: threads, registers (allocated per warp in units), shared memory
// (with the driver's per-block reserve) and the SM's block limit, whichever binds first.
#include <string>

namespace gpucast::device {

// The SM resources the rule reads (from the GPU description and its architecture file).
struct SmLimits {
  int max_threads = 0;
  int max_blocks = 0;
  int registers = 0;  // 32-bit registers per SM
  int warp_size = 32;
  int register_allocation_unit = 256;
  double shared_bytes = 0;  // configurable shared memory per SM
  double shared_reserved_per_block_bytes = 0;
};

// What one block of a kernel asks for.
struct BlockResources {
  int threads = 128;
  int registers_per_thread = 32;
  double shared_bytes = 0;
  int max_blocks_per_sm = 0;  // the kernel's own cap (persistent kernels: 1); 0 = none
};

// Which limit binds, for reports and tests.
enum class OccupancyLimit { threads, registers, shared_memory, blocks, kernel_cap };

struct Occupancy {
  int blocks_per_sm = 0;  // 0: one block does not fit
  OccupancyLimit limit = OccupancyLimit::blocks;
};

[[nodiscard]] Occupancy occupancy(const BlockResources& block, const SmLimits& sm);
[[nodiscard]] const char* occupancy_limit_name(OccupancyLimit limit);

}  // namespace gpucast::device
