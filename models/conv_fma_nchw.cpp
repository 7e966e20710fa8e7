#include "models/conv_fma_nchw.h"

#include <algorithm>
#include <cmath>

#include "models/helper_kernels.h"

namespace gpucast::models {
namespace {
// The two tiles the H100 and H200 profiles show (validation/<gpu>/kernels.json, dev and calibration
// cases conv2d-1096, -1097, -1106, -1146): 32x32x8 with warpsize 1x2x1 (64 threads) and 256x64x8
// with warpsize 2x2x1 (128 threads); K advances 8 (C x R x S, NCHW order) per step. Library facts.
constexpr double kNchwSmallTile = 32;
constexpr int kNchwSmallTileThreads = 64;
constexpr double kNchwLargeTileM = 256;
constexpr double kNchwLargeTileN = 64;
constexpr int kNchwLargeTileThreads = 128;
constexpr double kNchwKStep = 8;
constexpr double kNchwStages = 3;  // "stage3" in both names
// The large tile is picked once its grid covers this share of the SMs (dev: 100 blocks of 256x64
// on 132 SMs ran it, 52 did not; assumption in between).
constexpr double kNchwLargeTileMinSmShare = 0.5;
// Per K step, each thread issues tile_m x tile_n / threads x 8 FMAs, one warp per scheduler at one
// instruction per clock; FMAs are this share of what it issues (the rest: shared-memory loads of the
// fragments, global loads of the next stage, address arithmetic), and each step exposes this many
// cycles of barrier and shared-memory latency that two to four warps cannot hide. Dev: the 32x32
// kernel of conv2d-1097 (576 steps, 395 cycles each) and the 256x64 kernel of conv2d-1106 (128
// steps, 1,730 cycles each) on the H100 give both numbers.
constexpr double kFmaIssueShare = 0.67;
constexpr double kKStepExposedCycles = 204;
constexpr int kNchwRegisters = 128;
// Lane instructions per element of cuDNN's nhwcToNchw / nchwToNhwc transposes (index math, a
// shared-memory tile, the store; assumption).
constexpr double kTransposeInstructionsPerElement = 8;
constexpr double kNchwFp32Bytes = 4;
// An FMA is two floating-point operations (definition).
constexpr double kFlopsPerFma = 2;
}  // namespace

FmaNchwTile fma_nchw_tile(const wl::Conv2dOp& op, const device::Device& gpu) {
  const double m = double(op.n) * double(op.p()) * double(op.q());
  const double large_blocks = std::ceil(m / kNchwLargeTileM) * std::ceil(double(op.k) / kNchwLargeTileN);
  if (large_blocks >= kNchwLargeTileMinSmShare * gpu.sms())
    return {kNchwLargeTileM, kNchwLargeTileN, kNchwLargeTileThreads};
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
  // With blocks enough to give every scheduler a warp, the SM issues FMAs at its rate times their
  // share: a share of the raw issue rate (one FMA per lane per clock, as the fixed cycles below count
  // it), not of the description's FP32 rate, which carries cuBLAS SGEMM's efficiency already.
  const double raw_fma_flops_per_us = kFlopsPerFma * gpu.simt_lanes() * gpu.clock_mhz();
  k.pipe_efficiency = kFmaIssueShare * raw_fma_flops_per_us / gpu.pipe_rate(Pipe::fp32, DataType::fp32);
  // One block alone on an SM (its two or four warps, at most one per scheduler): each K step's FMAs at
  // one instruction per clock per warp, plus the step's exposed latency.
  const double fma_cycles_per_step = tile.m * tile.n * kNchwKStep / tile.threads / kFmaIssueShare;
  k.fixed_cycles = k_steps * (fma_cycles_per_step + kKStepExposedCycles);
  k.dram_bytes = (input_elements + filter_elements + output_elements) * kNchwFp32Bytes / k.blocks;
  k.dram_write_bytes = output_elements * kNchwFp32Bytes / k.blocks;
  k.l2_bytes = k_steps * (tile.m + tile.n) * kNchwKStep * kNchwFp32Bytes + tile.m * tile.n * kNchwFp32Bytes;
  k.dram_rounds = 1;

  PlanOption option{k.name, {}, 0, {}};
  auto transpose = [&](const std::string& what, double elements) {
    option.kernels.push_back(streaming_kernel(what, elements, elements * kNchwFp32Bytes,
                                              elements * kNchwFp32Bytes, kTransposeInstructionsPerElement,
                                              gpu));
  };
  transpose("nhwcToNchw (input)", input_elements);
  // A 1x1 filter is the same array in KRSC and KCRS order: only wider filters are transposed.
  if (taps > 1) transpose("nhwcToNchw (filter)", filter_elements);
  option.kernels.push_back(k);
  transpose("nchwToNhwc (output)", output_elements);
  return option;
}

}  // namespace gpucast::models
