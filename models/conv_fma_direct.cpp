#include "models/conv_fma_direct.h"

#include <algorithm>
#include <cmath>

namespace gpucast::models {
namespace {
// 128 threads per block (assumption: the fp16 instantiation's template argument,
// convolve_common_engine_float_NHWC<__half, __half, 128, ...>, conv2d-1158), each thread one output
// pixel's group of 4 output channels (one 16-byte vector of weights per step; assumption). Lanes of a
// warp that share a pixel load its input value in one L1 wavefront: the per-tap work below is per
// pixel, and the split over output channels only spreads it over more warps (small images, conv2d-1150).
constexpr int kDirectThreads = 128;
constexpr double kDirectOutputChannelsPerThread = 4;
// Registers a thread: 4 accumulators and the step's operands (assumption; with 16 blocks an SM).
constexpr int kDirectRegisters = 32;
// Lane instructions per output channel of one (tap, input channel) step: the FFMA and a quarter of
// a 16-byte shared-memory load of the weights (assumption).
constexpr double kDirectInstructionsPerOutputChannel = 1.25;
// Lane instructions per (output pixel, tap, input channel) whatever the output channels: the input
// value's address, bounds predicates against the padding, the load and its convert. Fit on the dev
// split, H100+H200: conv2d-1104 (32x224x224x3 k64 7x7/2, 375 and 381 us of kernel).
constexpr double kDirectInstructionsPerTapChannel = 130;
// A thread walks its taps and channels in order, each step's FMAs waiting on that step's input load
// (an L1 or L2 hit): cycles per step that a grid too small to fill the SMs exposes. Fit on the dev
// split, H100+H200: conv2d-1150 (1x31x31x5 k16 5x5/2, 8.2 and 8.1 us of kernel for 256 pixels; the
// call measures 7 us above its kernel in both runs on both GPUs, host time the fit leaves out).
constexpr double kDirectStepLatencyCycles = 125;
}  // namespace

PlanOption fma_direct_conv_plan(const wl::Conv2dOp& op, const device::Device& gpu) {
  (void)gpu;
  const double e = bytes_per_element(op.dtype);
  const double n = double(op.n), p = double(op.p()), q = double(op.q());
  const double pixels = n * p * q;
  const double taps_channels = double(op.r) * double(op.s) * double(op.c);
  const double input_bytes = n * double(op.h) * double(op.w) * double(op.c) * e;
  const double filter_bytes = double(op.k) * taps_channels * e;
  const double output_bytes = pixels * double(op.k) * e;

  KernelPlan k;
  k.name = "direct NHWC convolution (FMA)";
  const double threads = pixels * std::ceil(double(op.k) / kDirectOutputChannelsPerThread);
  k.blocks = std::max(1.0, std::ceil(threads / kDirectThreads));
  k.threads = kDirectThreads;
  k.registers = kDirectRegisters;
  k.pipe = Pipe::none;
  const double per_step =
      kDirectInstructionsPerTapChannel + kDirectInstructionsPerOutputChannel * double(op.k);
  k.simt_instructions = pixels * taps_channels * per_step / k.blocks;
  k.dram_bytes = (input_bytes + filter_bytes + output_bytes) / k.blocks;
  k.dram_write_bytes = output_bytes / k.blocks;
  k.l2_bytes = k.dram_bytes;
  k.dram_rounds = 1;
  k.fixed_cycles = taps_channels * kDirectStepLatencyCycles;
  return PlanOption{"convolve_common_engine_float_NHWC", {k}, 0, {}};
}

}  // namespace gpucast::models
