#include "models/conv_few_channel.h"

#include <algorithm>
#include <cmath>

#include "models/helper_kernels.h"

namespace gpucast::models {
namespace {
// Tiles from the kernel names (validation/<gpu>/kernels.json, conv2d-1113, -1118, -1119; library
// facts): fp16 tilesize128x16x32, tf32 tilesize128x32x16, both warpsize4x1x1 (128 threads), stage1.
// A tap's channels are one K step of the tile's depth, however few of them there are.
constexpr double kTileM = 128;
constexpr double kTileNHalf = 16;
constexpr double kTileNTf32 = 32;
constexpr double kTileKHalf = 32;
constexpr double kTileKTf32 = 16;
constexpr int kThreads = 128;
constexpr int kRegisters = 128;
// Each step also reads its tap's precomputed offsets (the "indexed" table, an L1 hit) before the
// gather, and issues the step's mma.sync chain after it (cycles; dev: conv2d-1119 on the H100).
constexpr double kStepCycles = 100;
// Lane instructions per element of convertTensor_kernel (load, round to TF32, store; assumption).
constexpr double kConvertInstructionsPerElement = 4;
}  // namespace

PlanOption indexed_few_channel_conv_plan(const wl::Conv2dOp& op, DataType math, const device::Device& gpu) {
  const bool tf32 = math == DataType::tf32;
  const double e = bytes_per_element(math == DataType::tf32 ? DataType::fp32 : math);
  const double n = double(op.n), p = double(op.p()), q = double(op.q());
  const double taps = double(op.r) * double(op.s);
  const double tile_n = tf32 ? kTileNTf32 : kTileNHalf;
  const double tile_k = tf32 ? kTileKTf32 : kTileKHalf;
  const double m = n * p * q;
  const double input_bytes = n * double(op.c) * double(op.h) * double(op.w) * e;
  const double filter_bytes = double(op.k) * double(op.c) * taps * e;
  const double output_bytes = m * double(op.k) * e;
  const double steps = taps * std::ceil(double(op.c) / tile_k);

  KernelPlan k;
  k.name = "implicit gemm indexed, no shared memory " + std::to_string(int(kTileM)) + "x" +
           std::to_string(int(tile_n)) + "x" + std::to_string(int(tile_k));
  k.blocks = std::ceil(m / kTileM) * std::ceil(double(op.k) / tile_n);
  k.threads = kThreads;
  k.registers = kRegisters;
  k.pipe = Pipe::mma_sync;
  k.dtype = math;
  k.pipe_flops = 2 * kTileM * tile_n * steps * tile_k;  // whole K steps, mostly zero channels
  k.dram_bytes = (input_bytes + filter_bytes + output_bytes) / k.blocks;
  k.dram_write_bytes = output_bytes / k.blocks;
  // Gathered, not staged: a step moves only the tap's real channels, over the span of input pixels
  // the tile's rows cover (the stride apart) and the filter's rows.
  k.l2_bytes = taps * (kTileM * double(op.stride) + tile_n) * double(op.c) * e + kTileM * tile_n * e;
  // One stage, no shared memory: each K step's loads are waited for before its mma.
  k.dram_rounds = 1;
  k.l2_rounds = steps;
  k.fixed_cycles = steps * kStepCycles;
  k.bytes_in_flight = kTileM * double(op.stride) * double(op.c) * e;  // one step's gather

  PlanOption option{"sm80 indexed few-channel fprop: " + k.name, {}, 0, {}};
  if (tf32) {
    auto convert = [&](const std::string& what, double bytes) {
      option.kernels.push_back(streaming_kernel("convertTensor (" + what + " to tf32)", bytes / e, bytes,
                                                bytes, kConvertInstructionsPerElement, gpu));
    };
    convert("input", input_bytes);
    convert("filter", filter_bytes);
  }
  option.kernels.push_back(k);
  return option;
}

}  // namespace gpucast::models
