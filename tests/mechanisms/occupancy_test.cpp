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
  // 16 registers: 4096 per block, room for 16 blocks, so only the thread limit says 8.
  const auto o = occupancy(block(256, 16), hopper_like_sm());
  CHECK(o.blocks_per_sm == 8);
  CHECK(o.limit == OccupancyLimit::threads);
}

SCENARIO("threads are scheduled as whole warps: a 33-thread block takes two warps") {
  // 65 threads are three warps: 2048 / 96 = 21 blocks (counting threads alone would give 31). With
  // 16 registers the register file holds 42 such blocks, so it is the warp rule that binds.
  CHECK(occupancy(block(65, 16), hopper_like_sm()).blocks_per_sm == 2048 / 96);
  CHECK(occupancy(block(65, 16), hopper_like_sm()).limit == OccupancyLimit::threads);
}

SCENARIO("registers are allocated per warp in units of 256") {
  const auto sm = hopper_like_sm();
  // 64 registers x 32 lanes = 2048 per warp, 8 warps per block: 16384 per block -> 4 blocks.
  CHECK(occupancy(block(256, 64), sm).blocks_per_sm == 4);
  CHECK(occupancy(block(256, 64), sm).limit == OccupancyLimit::registers);
  // 33 registers x 32 lanes = 1056 round up to 1280 per warp: 4 warps take 5120 -> 12 blocks
  // (unrounded, 4224 per block would fit 15; the thread limit is 16).
  CHECK(occupancy(block(128, 33), sm).blocks_per_sm == 12);
  CHECK(occupancy(block(128, 33), sm).limit == OccupancyLimit::registers);
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
