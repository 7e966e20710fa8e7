// How occupancy works (device/occupancy.h): each limit binds exactly at its boundary.
// SM: 2048 threads, 32 blocks, 65536 registers (256 KB), 228 KB shared memory, 1 KB reserve.
#include <catch2/catch.hpp>

#include "device/occupancy.h"

using namespace gpucast::device;

namespace {
SmLimits hopper_like_sm() {
  SmLimits sm;
  sm.max_threads = 2048;
  sm.max_blocks = 32;
  sm.registers = 65536;
  sm.warp_size = 32;
  sm.register_allocation_unit = 256;
  sm.shared_bytes = 228 * 1024;
  sm.shared_reserved_per_block_bytes = 1024;
  return sm;
}
BlockResources block(int threads, int registers, double shared = 0) {
  return {threads, registers, shared, 0};
}
}  // namespace

SCENARIO("threads: 2048 per SM hold eight 256-thread blocks, not nine") {
  const auto o = occupancy(block(256, 32), hopper_like_sm());
  CHECK(o.blocks_per_sm == 8);
  CHECK(o.limit == OccupancyLimit::threads);
}

SCENARIO("threads are scheduled as whole warps: a 33-thread block takes two warps") {
  // 2048 / 64 = 32 blocks (the block limit ties); with 48 threads still 32, with 65 threads 21.
  CHECK(occupancy(block(65, 32), hopper_like_sm()).blocks_per_sm == 2048 / 96);
}

SCENARIO("registers are allocated per warp in units of 256") {
  const auto sm = hopper_like_sm();
  // 64 registers x 32 lanes = 2048 per warp, 8 warps per block: 16384 per block -> 4 blocks.
  CHECK(occupancy(block(256, 64), sm).blocks_per_sm == 4);
  CHECK(occupancy(block(256, 64), sm).limit == OccupancyLimit::registers);
  // 65 registers round up to 72 (65 x 32 = 2080 -> 2304 per warp): 18432 per block -> 3 blocks.
  CHECK(occupancy(block(256, 65), sm).blocks_per_sm == 3);
}

SCENARIO("shared memory counts the driver's 1 KB reserve per block") {
  const auto sm = hopper_like_sm();
  // 227 KB + 1 KB reserve = 228 KB: exactly one block fits; one byte more and none does.
  CHECK(occupancy(block(128, 32, 227 * 1024), sm).blocks_per_sm == 1);
  CHECK(occupancy(block(128, 32, 227 * 1024), sm).limit == OccupancyLimit::shared_memory);
  CHECK(occupancy(block(128, 32, 227 * 1024 + 1), sm).blocks_per_sm == 0);
  // 56 KB + 1 KB = 57 KB: four blocks fill 228 KB exactly.
  CHECK(occupancy(block(128, 32, 56 * 1024), sm).blocks_per_sm == 4);
}

SCENARIO("the SM's block limit binds small blocks") {
  const auto o = occupancy(block(32, 16), hopper_like_sm());
  CHECK(o.blocks_per_sm == 32);
  CHECK(o.limit == OccupancyLimit::blocks);
}

SCENARIO("a 64-wide wavefront halves the warps a 2048-thread SM schedules") {
  auto sm = hopper_like_sm();
  sm.warp_size = 64;
  // 96 threads: two 64-wide wavefronts = 128 thread slots -> 16 blocks (32 with 32-wide warps would be 21).
  CHECK(occupancy(block(96, 16), sm).blocks_per_sm == 16);
}
