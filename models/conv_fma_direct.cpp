#include "models/conv_fma_direct.h"

#include <algorithm>
#include <cmath>

#include "device/memory_granularity.h"

namespace gpucast::models {
namespace {
// 128 threads per block (assumption: the fp16 instantiation's template argument,
// convolve_common_engine_float_NHWC<__half, __half, 128, ...>, conv2d-1158), each thread one output
// pixel's group of 4 output channels (one 16-byte vector of weights per step; assumption). Lanes of a
// warp that share a pixel load its input value in one L1 wavefront. Output channels are covered 32 at
// a time, whole groups or not: in the H100 profiles 16x31x31x13 k33 5x5 runs 37.6 us
// (tune-conv2d-0482, kernels-tuning2.json) and the same convolution at k64 38.5 us (conv2d-1153,
// calibration split); k257 (tune-conv2d-0488) costs about as 288.
constexpr int kDirectThreads = 128;
constexpr double kDirectOutputChannelsPerThread = 4;
constexpr double kDirectOutputChannelGroup = 32;
// Registers a thread: 4 accumulators and the step's operands (assumption; with 16 blocks an SM).
constexpr int kDirectRegisters = 32;
// Lane instructions per output channel (of the 32-channel groups) and (tap, input channel) step
// (the FFMA, its share of the weight load, of the input's address, bounds predicates and broadcast
// load), and per output channel once (the pixel's coordinates, the store). Fit on the dev split and
// the tuning sets, H100: the kernel durations of the eight direct-kernel convolutions of over 10,000
// output pixels (conv2d-1104 dev, -1107 and -1153 calibration; tune-conv2d-0412, -0451, -0480,
// -0482, -0488 of kernels-tuning.json and kernels-tuning2.json). The best fit, 3.1 and 64 (6% mean
// error over the eight), runs conv2d-1104 7% slow in the model; 2.87 and 59 keep it within 1% with
// the fixed start below.
constexpr double kDirectInstructionsPerStep = 2.87;
constexpr double kDirectInstructionsPerOutput = 59;
// A thread walks its taps and channels in order, each step's FMAs waiting on that step's input load
// (an L1 or L2 hit): cycles per step that a grid too small to fill the SMs exposes; and before the
// first step the kernel spends a fixed time (the tiny grids of the profiles run 5 us and more at a
// few steps a thread: tune-conv2d-0462, 3 steps, 5.1 us; -0467, 50 steps, 5.1 us). Fit on the dev
// split and the tuning sets, H100: the kernel durations of the small-grid direct convolutions
// conv2d-1150 (dev; 125 steps, 8.2 us, H100 and H200), tune-conv2d-0448, -0462, -0500, -0503 and -0427
// (kernels-tuning.json, kernels-tuning2.json); 125 cycles a step and no fixed time before (fit on
// conv2d-1150 alone) left the others 10-50% short.
constexpr double kDirectStepLatencyCycles = 60;
constexpr double kDirectStartupCycles = 8000;
// A pixel's output row of k channels that is not a whole number of 32-byte sectors (k not a multiple
// of 8 in fp32) slows the kernel's stores once the output outgrows the L2. Dev probe
// probe-fp32-direct-k.json (H100, 2026-11-28: 1x1 over 16 x 113 x 113 images, k = 64-128 in steps of
// 4): at 24 channels k = 68, 76, ..., 124 ran 179-291 us against 80-175 us at the multiples of 8 on
// either side, at 48 channels 205-310 against 122-236 us: the odd multiples of 4 take their output
// (56-101 MB) at 0.27-0.35 TB/s whatever k, where the aligned ones are bound by their work. A 3x3
// filter over 8 channels (20 MB of output) and the pointwise probe's outputs of up to 5 MB show little
// of it (0-15%). Taken as a share of the sustained store rate for such outputs larger than the L2
// (device::kDramSectorBytes; the share is fit on the probe): 0.14, 0.12 and 0.1 give the
// direct-kernel dev cases 17.7, 16.6 and 16.7% (20.6% without; the probe 32.9% -> 16.9%); 0.12.
constexpr double kDirectUnalignedStoreEfficiency = 0.12;
}  // namespace

PlanOption fma_direct_conv_plan(const wl::Conv2dOp& op, const device::Device& gpu) {
  const double e = bytes_per_element(op.dtype);
  const double n = double(op.n), p = double(op.p()), q = double(op.q());
  const double pixels = n * p * q;
  const double taps_channels = double(op.r) * double(op.s) * double(op.c);
  const double input_bytes = n * double(op.h) * double(op.w) * double(op.c) * e;
  const double filter_bytes = double(op.k) * taps_channels * e;
  const double output_bytes = pixels * double(op.k) * e;

  KernelPlan k;
  k.name = "direct NHWC convolution (FMA)";
  const double outputs =
      pixels * std::ceil(double(op.k) / kDirectOutputChannelGroup) * kDirectOutputChannelGroup;
  k.blocks = std::max(1.0, std::ceil(outputs / kDirectOutputChannelsPerThread / kDirectThreads));
  k.threads = kDirectThreads;
  k.registers = kDirectRegisters;
  k.pipe = Pipe::none;
  k.simt_instructions =
      outputs * (kDirectInstructionsPerOutput + kDirectInstructionsPerStep * taps_channels) / k.blocks;
  k.dram_bytes = (input_bytes + filter_bytes + output_bytes) / k.blocks;
  k.dram_write_bytes = output_bytes / k.blocks;
  // Output rows that are not whole 32-byte sectors, over an output larger than the L2, store at a
  // fraction of the streaming rate (kDirectUnalignedStoreEfficiency).
  if (std::fmod(double(op.k) * e, device::kDramSectorBytes) != 0 && output_bytes > double(gpu.l2_bytes()))
    k.dram_write_efficiency = kDirectUnalignedStoreEfficiency;
  k.l2_bytes = k.dram_bytes;
  k.dram_rounds = 1;
  k.fixed_cycles = taps_channels * kDirectStepLatencyCycles;
  k.startup_cycles = kDirectStartupCycles;
  return PlanOption{"convolve_common_engine_float_NHWC", {k}, 0, {}};
}

}  // namespace gpucast::models
