#include "device/occupancy.h"

#include <algorithm>

namespace gpucast::device {

Occupancy occupancy(const BlockResources& block, const SmLimits& sm) {
  const int threads = std::max(1, block.threads);
  const int warps = (threads + sm.warp_size - 1) / sm.warp_size;
  const int unit = std::max(1, sm.register_allocation_unit);
  const int regs_per_warp =
      ((std::max(1, block.registers_per_thread) * sm.warp_size + unit - 1) / unit) * unit;
  Occupancy o{sm.max_blocks, OccupancyLimit::blocks};
  auto limit = [&o](int fit, OccupancyLimit why) {
    if (fit < o.blocks_per_sm) o = {fit, why};
  };
  // Threads are scheduled as whole warps.
  limit(sm.max_threads / (warps * sm.warp_size), OccupancyLimit::threads);
  limit(sm.registers / (regs_per_warp * warps), OccupancyLimit::registers);
  if (block.shared_bytes > 0)
    limit(static_cast<int>(sm.shared_bytes / (block.shared_bytes + sm.shared_reserved_per_block_bytes)),
          OccupancyLimit::shared_memory);
  if (block.max_blocks_per_sm > 0) limit(block.max_blocks_per_sm, OccupancyLimit::kernel_cap);
  o.blocks_per_sm = std::max(0, o.blocks_per_sm);
  return o;
}

const char* occupancy_limit_name(OccupancyLimit limit) {
  switch (limit) {
    case OccupancyLimit::threads:
      return "threads";
    case OccupancyLimit::registers:
      return "registers";
    case OccupancyLimit::shared_memory:
      return "shared memory";
    case OccupancyLimit::kernel_cap:
      return "kernel cap";
    default:
      return "blocks";
  }
}

}  // namespace gpucast::device
