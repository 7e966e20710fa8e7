#include "models/conv_few_channel.h"

#include <algorithm>
#include <cmath>

#include "models/conv_prologue.h"
#include "models/helper_kernels.h"

namespace gpucast::models {
namespace {
// Tiles from the kernel names (validation/<gpu>/kernels.json, conv2d-1113, -1118, -1119; library
// facts): fp16 tilesize128x16x32, tf32 tilesize128x32x16, both warpsize4x1x1 (128 threads), stage1.
// A tap's channels are one K step of the tile's depth, however few of them there are.
constexpr double kIndexedTileM = 128;
constexpr double kIndexedTileNHalf = 16;
constexpr double kIndexedTileNTf32 = 32;
constexpr double kIndexedTileKHalf = 32;
constexpr double kIndexedTileKTf32 = 16;
constexpr int kIndexedThreads = 128;
constexpr int kIndexedRegisters = 128;
// Each step also reads its tap's precomputed offsets (the "indexed" table, an L1 hit) before the
// gather, and issues the step's mma.sync chain after it (cycles; dev: conv2d-1119 on the H100).
constexpr double kIndexedStepCycles = 100;
// Lane instructions per element of convertTensor_kernel (load, round to TF32, store; assumption).
constexpr double kTf32ConvertInstructionsPerElement = 4;
}  // namespace

PlanOption indexed_few_channel_conv_plan(const wl::Conv2dOp& op, DataType math, const device::Device& gpu) {
  const bool tf32 = math == DataType::tf32;
  const double e = bytes_per_element(math == DataType::tf32 ? DataType::fp32 : math);
  const double n = double(op.n), p = double(op.p()), q = double(op.q());
  const double taps = double(op.r) * double(op.s);
  const double tile_n = tf32 ? kIndexedTileNTf32 : kIndexedTileNHalf;
  const double tile_k = tf32 ? kIndexedTileKTf32 : kIndexedTileKHalf;
  const double m = n * p * q;
  const double input_bytes = n * double(op.c) * double(op.h) * double(op.w) * e;
  const double filter_bytes = double(op.k) * double(op.c) * taps * e;
  const double output_bytes = m * double(op.k) * e;
  const double steps = taps * std::ceil(double(op.c) / tile_k);

  KernelPlan k;
  k.name = "implicit gemm indexed, no shared memory " + std::to_string(int(kIndexedTileM)) + "x" +
           std::to_string(int(tile_n)) + "x" + std::to_string(int(tile_k));
  k.blocks = std::ceil(m / kIndexedTileM) * std::ceil(double(op.k) / tile_n);
  k.threads = kIndexedThreads;
  k.registers = kIndexedRegisters;
  k.pipe = Pipe::mma_sync;
  k.dtype = math;
  k.pipe_flops = 2 * kIndexedTileM * tile_n * steps * tile_k;  // whole K steps, mostly zero channels
  k.dram_bytes = (input_bytes + filter_bytes + output_bytes) / k.blocks;
  k.dram_write_bytes = output_bytes / k.blocks;
  // Gathered, not staged: a step moves only the tap's real channels, over the span of input pixels
  // the tile's rows cover (the stride apart) and the filter's rows.
  k.l2_bytes =
      taps * (kIndexedTileM * double(op.stride) + tile_n) * double(op.c) * e + kIndexedTileM * tile_n * e;
  // One stage, no shared memory: each K step's loads are waited for before its mma.
  k.dram_rounds = 1;
  k.l2_rounds = steps;
  k.fixed_cycles = steps * kIndexedStepCycles;
  k.bytes_in_flight = kIndexedTileM * double(op.stride) * double(op.c) * e;  // one step's gather
  k.startup_cycles = kCudnnConvPrologueCycles;

  PlanOption option{"sm80 indexed few-channel fprop: " + k.name, {}, 0, {}};
  if (tf32) {
    auto convert = [&](const std::string& what, double bytes) {
      option.kernels.push_back(streaming_kernel("convertTensor (" + what + " to tf32)", bytes / e, bytes,
                                                bytes, kTf32ConvertInstructionsPerElement, gpu));
    };
    convert("input", input_bytes);
    convert("filter", filter_bytes);
  }
  option.kernels.push_back(k);
  return option;
}

}  // namespace gpucast::models
