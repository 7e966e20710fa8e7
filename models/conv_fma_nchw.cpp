#include "models/conv_fma_nchw.h"

#include <algorithm>
#include <cmath>

#include "models/helper_kernels.h"

namespace gpucast::models {
namespace {
// The tiles the H100 and H200 profiles show (validation/<gpu>/kernels.json, dev and calibration
// cases conv2d-1096, -1097, -1106, -1146; kernels-tuning.json and kernels-tuning2.json): 32x32x8 with
// warpsize 1x2x1 (64 threads), 128x32x8 and 256x64x8 with warpsize 2x2x1 (128 threads); K advances 8
// (C x R x S, NCHW order) per step. Library facts.
constexpr double kNchwSmallTile = 32;
constexpr int kNchwSmallTileThreads = 64;
constexpr double kNchwMediumTileM = 128;
constexpr double kNchwMediumTileN = 32;
constexpr int kNchwMediumTileThreads = 128;
constexpr double kNchwLargeTileM = 256;
constexpr double kNchwLargeTileN = 64;
constexpr int kNchwLargeTileThreads = 128;
constexpr double kNchwKStep = 8;
constexpr double kNchwStages = 3;  // "stage3" in all three names
// The large tile runs for 1x1 filters once its grid covers this share of the SMs (dev: 100 blocks of
// 256x64 on 132 SMs ran it, 52 did not; assumption in between).
constexpr double kNchwLargeTileMinSmShare = 0.5;
// Wider filters run 256x64 where the output channels are exactly its width (k = 64: one column of
// tiles, none masked) and its grid fills the SMs. Evidence (H100, probe-fp32-conv.json, dev: 3x3,
// k = 64, C 16-96): every grid of 196 and 784 such blocks (1.5 and 5.9 x 132) ran 256x64; of the
// 49-block grids (0.37 x 132) six ran it, twelve 32x32 (the rule's side). The broad set's and tuning
// sets' wider filters (k of 100 to 512: 3x3 and 5x5 grids of 65 to 2,560 such blocks) never ran it.
// Taking its timing as the 1x1 fit gives it (kLargeTileFmaShare), the fourteen probe grids of 196 and
// 784 blocks went from +30..+55% (32x32 over 8 waves of 128x32) to -7..+8% (one host-bound outlier,
// -46%). The rule first took every k up to 64; the held-out probe (probe-heldout-2026-11-27.json,
// measured after it) ran 256x64 at k = 64 (five grids: 4.3% against the old rule's 9.5%) and at
// k = 40, but 128x32 at k = 48 and 32 and the direct kernel at k = 24 (C = 24), so it now takes k = 64
// only, and that probe is dev data for this rule. Grids of 127 and 128 blocks (0.96 x 132) ran it too:
// the threshold between 0.37 and 0.96 SMs' worth is not resolved (assumption: one).
constexpr double kNchwWideFilterLargeTileMinSmShare = 1.0;
// Wider filters run 128x32 when its grid is more than this many SMs' worth of blocks and at most
// kNchwMediumTileMaxWaves of them, else 32x32. Evidence (H100, kernels-tuning.json and
// kernels-tuning2.json, all dev): 234, 408 and 408 blocks of 128x32 (1.8 and 3.1 x 132) ran 128x32
// (tune-conv2d-0490, -0453, -0469); 198 (1.5 x 132, -0463) and fewer ran 32x32, and so did 2,560 and
// 10,240 (19 and 78 x 132; -0434, -0416 of kernels-tuning2.json and kernels-tuning.json). The upper
// boundary between 3.1 and 19 is an assumption.
constexpr double kNchwMediumTileMinWaves = 1.5;
constexpr double kNchwMediumTileMaxWaves = 8;
// Each of an SM's schedulers (simt lanes / warp size of them) issues one warp instruction a clock;
// per K step a warp issues its tile_m x tile_n x 8 / threads FMAs, which are this share of what it
// issues (the rest: fragment loads from shared memory, the next stage's global loads, address
// arithmetic); warps that share a scheduler queue there. On top, each step exposes a latency (the
// stage's barrier and shared-memory round trip) the resident blocks do not hide. Fit on the dev split
// and the tuning sets, H100: the 32x32 kernel's cycles per K step with 1, 1, 2, 3 and 4 warps a
// scheduler (conv2d-1097 dev; tune-conv2d-0410, -0411, -0463 and -0416 of kernels-tuning.json: 396,
// 417, 705, 1,118 and 1,237 cycles at 1 to 8 blocks an SM) give the latency and the share of the
// small tiles (whose threads hold 16 and 32 outputs); the 256x64 kernel alone on an SM (conv2d-1106,
// 1,739 cycles a step; 128 outputs a thread, fewer fragment loads per FMA) the large tile's share.
// The share grows with a thread's outputs (its fragment loads per FMA fall); the 128x32 tile (32
// outputs a thread) takes the share interpolated on the log of the outputs between the two fitted
// tiles (16 and 128 outputs: 0.486; assumption). Its three profiles (tune-conv2d-0453, -0469, -0490,
// kernels-tuning.json and kernels-tuning2.json, H100, dev) chose that form: at the small tile's share
// they ran +12, +8, +11% over, interpolated -1, -3, -1% (tuning sets, calibrated H100, conv2d:
// 12.43 -> 12.01% and 8.67 -> 8.42%; no broad dev case runs 128x32).
constexpr double kKStepExposedCycles = 91;
constexpr double kSmallTileFmaShare = 0.419;
constexpr double kLargeTileFmaShare = 0.621;
constexpr int kNchwRegisters = 128;
// Lane instructions per element of cuDNN's nhwcToNchw / nchwToNhwc transposes (index math, a
// shared-memory tile, the store; assumption).
constexpr double kTransposeInstructionsPerElement = 8;
constexpr double kNchwFp32Bytes = 4;
// Each transpose also lasts a fixed time beyond what its bytes and instructions give it, as cuDNN's
// nhwcAddPaddingKernel does (conv_model.cpp, kPadStartupCycles): the small ones run 1.6-2.0 us in
// the profiles whatever their size (3,000 to 216,000 elements: conv2d-1146 dev; tune-conv2d-0406,
// -0463, -0481, -0484, -0494, -0502 of kernels-tuning.json and kernels-tuning2.json, H100), where the
// streaming model gives 0.7-1.4 us. Fit on those (29 transposes under 3 us, H100): 0 / 1,000 / 1,500 /
// 1,900 cycles give their MAPE 40.3 / 19.6 / 13.5 / 14.2% (bias -37.6 / -11.3 / +1.8 / +12.4%);
// 1,500, the padding kernels' value. Conv2d MAPE, dev split (calibrated H100 / catalog H100 median of
// three runs / calibrated H200 / catalog H200 run 2): 7.00/7.03/6.01/6.25% -> 7.05/7.09/6.00/6.24%;
// the tuning sets (calibrated H100): 12.16 -> 12.43% and 9.66 -> 8.67%.
constexpr double kTransposeStartupCycles = 1500;
}  // namespace

FmaNchwTile fma_nchw_tile(const wl::Conv2dOp& op, const device::Device& gpu) {
  const double m = double(op.n) * double(op.p()) * double(op.q());
  const double sms = gpu.sms();
  if (op.r * op.s == 1) {
    const double large_blocks = std::ceil(m / kNchwLargeTileM) * std::ceil(double(op.k) / kNchwLargeTileN);
    if (large_blocks >= kNchwLargeTileMinSmShare * sms)
      return {kNchwLargeTileM, kNchwLargeTileN, kNchwLargeTileThreads};
    return {kNchwSmallTile, kNchwSmallTile, kNchwSmallTileThreads};
  }
  // Wider filters whose output channels are exactly one large tile's width run it once its grid fills
  // the SMs.
  const double large_blocks = std::ceil(m / kNchwLargeTileM);
  if (double(op.k) == kNchwLargeTileN && large_blocks >= kNchwWideFilterLargeTileMinSmShare * sms)
    return {kNchwLargeTileM, kNchwLargeTileN, kNchwLargeTileThreads};
  const double medium_blocks = std::ceil(m / kNchwMediumTileM) * std::ceil(double(op.k) / kNchwMediumTileN);
  if (medium_blocks > kNchwMediumTileMinWaves * sms && medium_blocks <= kNchwMediumTileMaxWaves * sms)
    return {kNchwMediumTileM, kNchwMediumTileN, kNchwMediumTileThreads};
  return {kNchwSmallTile, kNchwSmallTile, kNchwSmallTileThreads};
}

PlanOption fma_nchw_conv_plan(const wl::Conv2dOp& op, const device::Device& gpu) {
  const double n = double(op.n), p = double(op.p()), q = double(op.q());
  const double taps = double(op.r) * double(op.s);
  const double input_elements = n * double(op.c) * double(op.h) * double(op.w);
  const double filter_elements = double(op.k) * double(op.c) * taps;
  const double output_elements = n * double(op.k) * p * q;
  const FmaNchwTile tile = fma_nchw_tile(op, gpu);
  const double m = n * p * q;
  const double k_steps = std::ceil(double(op.c) * taps / kNchwKStep);

  KernelPlan k;
  k.name = "fp32 NCHW implicit gemm " + std::to_string(int(tile.m)) + "x" + std::to_string(int(tile.n)) +
           "x8 (FMA)";
  k.blocks = std::ceil(m / tile.m) * std::ceil(double(op.k) / tile.n);
  k.threads = tile.threads;
  k.registers = kNchwRegisters;
  k.shared_bytes = kNchwStages * (tile.m + tile.n) * kNchwKStep * kNchwFp32Bytes;
  k.pipe = Pipe::fp32;
  k.dtype = DataType::fp32;
  // Whole tiles and whole K steps are computed, masked or not.
  const double fmas = tile.m * tile.n * k_steps * kNchwKStep;
  k.pipe_flops = 2 * fmas;
  // Per K step an SM's busiest scheduler issues its warps' FMAs at the tile's share, plus the exposed
  // latency once: each resident block is charged its share of that, so the wave's compute (blocks an
  // SM x one block's time) is the step's whole cost. A lone block (one warp a scheduler) pays it all.
  const double resident = std::max(
      1.0, std::min(std::ceil(k.blocks / gpu.sms()), double(gpu.blocks_per_sm(k.resources(), k.name))));
  const double schedulers = double(gpu.simt_lanes()) / double(gpu.warp_size());
  const double warps = std::ceil(double(tile.threads) / double(gpu.warp_size()));
  const double warps_per_scheduler = std::ceil(resident * warps / schedulers);
  const double outputs_per_thread = tile.m * tile.n / double(tile.threads);
  const double small_outputs = kNchwSmallTile * kNchwSmallTile / double(kNchwSmallTileThreads);
  const double large_outputs = kNchwLargeTileM * kNchwLargeTileN / double(kNchwLargeTileThreads);
  // Tiles between the two fitted ones (128x32: 32 outputs a thread) interpolate on the log of that.
  const double share = kSmallTileFmaShare + (kLargeTileFmaShare - kSmallTileFmaShare) *
                                                std::log2(outputs_per_thread / small_outputs) /
                                                std::log2(large_outputs / small_outputs);
  const double warp_cycles_per_step = tile.m * tile.n * kNchwKStep / double(tile.threads) / share;
  const double sm_cycles_per_step = warps_per_scheduler * warp_cycles_per_step + kKStepExposedCycles;
  k.pipe_efficiency = k.pipe_flops / (gpu.pipe_rate(Pipe::fp32, DataType::fp32) *
                                      gpu.cycles_to_us(k_steps * sm_cycles_per_step / resident));
  k.fixed_cycles = k_steps * (warp_cycles_per_step + kKStepExposedCycles);
  k.dram_bytes = (input_elements + filter_elements + output_elements) * kNchwFp32Bytes / k.blocks;
  k.dram_write_bytes = output_elements * kNchwFp32Bytes / k.blocks;
  k.l2_bytes = k_steps * (tile.m + tile.n) * kNchwKStep * kNchwFp32Bytes + tile.m * tile.n * kNchwFp32Bytes;
  k.dram_rounds = 1;

  PlanOption option{k.name, {}, 0, {}};
  auto transpose = [&](const std::string& what, double elements) {
    option.kernels.push_back(streaming_kernel(what, elements, elements * kNchwFp32Bytes,
                                              elements * kNchwFp32Bytes, kTransposeInstructionsPerElement,
                                              gpu));
    option.kernels.back().startup_cycles = kTransposeStartupCycles;
  };
  transpose("nhwcToNchw (input)", input_elements);
  // A 1x1 filter is the same array in KRSC and KCRS order: only wider filters are transposed.
  if (taps > 1) transpose("nhwcToNchw (filter)", filter_elements);
  option.kernels.push_back(k);
  transpose("nchwToNhwc (output)", output_elements);
  return option;
}

}  // namespace gpucast::models
