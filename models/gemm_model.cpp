#include "models/gemm_model.h"
#include "models/l2_writeback.h"

#include "models/gemm_alignment.h"

#include <algorithm>
#include <cmath>
#include <iterator>

#include "common/errors.h"
#include "models/helper_kernels.h"

namespace gpucast::models {
namespace {

using Tile = GemmTile;

// Tile shapes (tm x tn) of the tensor-core kernels libraries ship, tried in this order. Library
// fact: the tile shapes cuBLAS and CUTLASS name in their kernels (nvjet_*_<tm>x<tn>_*,
// sm90_xmma_gemm_*_<tm>x<tn>x*); the skinny ones (8..32 along one side) are the GEMV-like kernels
// cuBLAS picks when m or n is tiny.
constexpr Tile kTensorTiles[] = {
    {256, 128}, {128, 256}, {192, 192}, {320, 128}, {128, 320}, {128, 128}, {192, 128}, {128, 192}, {128, 64},
    {64, 128},  {64, 64},   {64, 256},  {256, 64},  {96, 128},  {128, 96},  {8, 128},   {16, 128},  {32, 128},
    {8, 256},   {16, 256},  {32, 256},  {64, 8},    {64, 16},   {64, 32},   {128, 8},   {128, 16},  {128, 32},
    {256, 8},   {256, 16},  {256, 32},  {8, 64},    {16, 64},   {32, 64},
};
// TF32 kernels come in fewer shapes (4-byte operands fill shared memory twice as fast). Library
// fact: the tf32 tile shapes of CUTLASS's sm80/sm90 GEMM instances.
constexpr Tile kTf32Tiles[] = {{256, 128}, {128, 256}, {128, 128}, {128, 64}, {64, 128}, {64, 64}};
// The narrow-load fallback of unaligned 16-bit GEMMs (cutlass_75_tensorop_*s1688gemm_*_align1): its
// tiles in the H100 and H200 profiles (dev and calibration splits) are 64x64, 128x128, 256x128 and
// 128x256 only, split over K when they leave SMs idle; the model's smaller tiles are not among them.
constexpr Tile kUnaligned16BitTiles[] = {{256, 128}, {128, 256}, {128, 128}, {64, 64}};
// Small fp16 fallback GEMMs run cuBLAS's WMMA kernel instead
// (cutlass_75_wmma_tensorop_f16_s161616gemm_f16_32x32_64x1_*_align1: 32x32 tiles, K steps of 64,
// one warp): in the H100 profiles (dev split and tuning sets) every fp16 align1 GEMM of at most 132
// MFLOP ran it (1021x509x127, 509x509x251, down to 17x61x3627), none of 261 MFLOP or more
// (509x251x1021, 199x3179x243, 251x4093x251). bf16 has no sm75 WMMA kernel (it runs the s1688 64x64
// tiles at every size).
constexpr Tile kWmmaFallbackTiles[] = {{32, 32}};
// The WMMA kernel's K step ("_64x1" in its name; library fact).
constexpr double kWmmaFallbackKStep = 64;
// fp16 align1 GEMMs of at most this many FLOPs (2 m n k batch) run the WMMA kernel: between the
// largest that did in the H100 profiles (132 MFLOP) and the smallest that did not (261 MFLOP);
// the boundary is their geometric mean (assumption).
constexpr double kWmmaFallbackMaxFlops = 1.85e8;
// When the fallback runs 64x64 (dev and calibration profiles: n = 27-75, m = 17-39, k = 127, or both
// sides within 251 ran 64x64; m = 127-1021 with n and k of 251-4093 ran 128x128 with split-K; one
// calibration case, k = 110 at m = 9064, ran 128x128 against the rule).
constexpr double kFallbackSmallSide = 96;
constexpr double kFallbackShortK = 128;
constexpr double kFallbackSmallProblem = 256;
// The sm75 fallback (16-bit align1, not the WMMA kernel) always splits K, down to one K step per
// split, when its 64x64 tiles would fill under half of the SMs: in the H100 dev split and tuning
// sets 24 of the 27 cutlass_75_tensorop_*_align1 GEMMs below that fill ran a
// cublasLt::splitKreduce_kernel after the main kernel (3005x31x13, 399x75x67, 159x159x77, ...; not
// 251x251x127, 989x233x49, 39x2227x55), against 22 of the 69 above it, where the model's own
// split-K pricing chooses (profiled library behaviour; the boundary is an assumption).
constexpr double kFallbackSplitMaxFill = 0.5;
constexpr double kFallbackSplitFillTileSide = 64;
// cuBLAS's fp32 SIMT GEMMs (no TF32) split K on the same rule as the sm75 fallback, below a
// quarter of the SMs: in the H100 dev split and tuning sets 18 of the 20 fp32 GEMMs whose 64x64
// tiles fill under 33 SMs ran a split (a cublasLt::splitKreduce_kernel after
// cutlass_80_simt_sgemm_*, or a second sm80_xmma_gemm_f32f32_* reduction launch), even at 2-8 K
// steps of 8 (277x21x23, 629x143x35, 373x187x55, 159x331x61, 944x48x16); the two that did not ran
// the 32x32 xmma kernel (251x251x127, 32x1608x48). Between a quarter and half of the SMs 3 of 4 split
// but 2319x53x41 (37 tiles) ran unsplit; forcing the split there too made the dev split's gemm MAPE
// worse (its 6.9 us became 11.5 us): the boundary is fit on the dev split and tuning sets. Above it
// the split options compete on time (GemmShape::split_max_fill).
constexpr double kFp32SplitMaxFill = 0.25;
// SIMT (FP64 without tensor cores) tiles. Library fact: CUTLASS SIMT GEMM instances
// (cutlass_simt_sgemm_<tm>x<tn>_8x*).
constexpr Tile kSimtTiles[] = {{256, 128}, {128, 256}, {128, 128}, {128, 64},
                               {64, 128},  {64, 64},   {32, 128},  {128, 32}};
// cuBLAS's FP32 SIMT kernels (no TF32) and their warps, as PyTorch's m x n. Library fact, the kernels
// the H100 and H200 profiles name (dev split and tuning sets): sm80_xmma_gemm_f32f32_f32f32_f32_*_
// tilesize<tm>x<tn>x8_stage3_warpsize<a>x<b>x1_ffma, named along m x n (64x256 at m = 33 and 64:
// gemm-0888, tune-gemm-0255), a*b warps: 256x128 4x2x1; 128x128, 64x256, 128x64, 64x128, 64x64 4
// warps; 64x32, 32x64, 32x32 1x2x1; and cutlass_80_simt_sgemm_<a>x<b>_8x<stages>, named in cuBLAS's
// column-major n x m (128x32 at m = 32: gemm-0172), CUTLASS's SM80 SIMT instances, whose names give
// no warps (assumption: 8 warps at 128x256 as at 256x128, 2 at 128x32 and 32x128 as at 64x32). No
// 256x64 (m x n) kernel appears: listing one made the dev split's gemm MAPE worse (6.86 / 7.08 / 8.38 /
// 9.36% without it, 6.95 / 7.16 / 8.47 / 9.44% with it; calibrated H100, H100, calibrated H200, H200).
constexpr Tile kFp32SimtTiles[] = {
    {256, 128, 8}, {128, 256, 8}, {128, 128, 4}, {64, 256, 4}, {128, 64, 4}, {64, 128, 4},
    {64, 64, 4},   {64, 32, 2},   {32, 64, 2},   {32, 32, 2},  {128, 32, 2}, {32, 128, 2},
};
// Their K step: one 8-deep stage ("x8" in every name; library fact).
constexpr double kFp32SimtKStep = 8;
// A SIMT GEMM thread computes tm*tn/(32*warps) outputs: per K element it issues that many FFMAs,
// the fragment loads of its row and column slices from shared memory (4 floats per LDS.128, library
// fact: CUTLASS SIMT's vectorized fragment loads; a square thread tile has 2*sqrt(outputs) of them)
// and this many other instructions (addresses, the cp.async of the next stage, the barrier and the
// loop, spread over the K step). Smaller per-thread tiles spend more issue slots beside their
// FFMAs: cuBLAS's fp32 kernels sustain about 50 TFLOP/s at 128 outputs a thread (256x128, 128x128
// tiles), 43-47 at 64 (128x64, 64x128: gemm-0170, gemm-0828) and 38-40 at 32 (64x64: gemm-0822,
// tune-gemm-0144) on the H100. The description's fp32 efficiency is calibrated on square GEMMs,
// which run 128 outputs a thread: other tiles scale by their FFMA issue share against that one's.
// Fit on the dev split (calibrated H100 / catalog H100 / calibrated H200 / catalog H200 gemm MAPE)
// and the H100 tuning sets (kernels-tuning / -tuning2, calibrated): 4 instructions 7.22 / 7.37 /
// 8.80 / 9.65%, 10.62 / 10.44%; 12: 7.05 / 7.24 / 8.66 / 9.51%, 10.27 / 10.10%; 24: 6.96 / 7.19 /
// 8.58 / 9.48%, 10.35 / 9.81%; 40: 7.17 / 7.41 / 8.66 / 9.63%, 10.42 / 9.59% (before this mechanism:
// 7.06 / 7.28 / 8.68 / 9.60%, 10.61 / 10.04%). 24.
constexpr double kSimtFloatsPerSharedLoad = 4;
constexpr double kSimtOtherInstructionsPerK = 24;
constexpr double kSimtCalibratedOutputsPerThread = 128;
// Warps issue on their own SM sub-partition's FP32 lanes (a warp's worth each: the description's
// SIMT lanes over its warp size, 4 on Ampere and Hopper): an SM with fewer resident warps than
// sub-partitions leaves lanes idle.
constexpr double kWarpThreads = 32;

// One of the tile tables above, walked in order.
struct TileList {
  const Tile* first;
  const Tile* last;
  [[nodiscard]] const Tile* begin() const { return first; }
  [[nodiscard]] const Tile* end() const { return last; }
};
template <std::size_t N>
TileList tile_list(const Tile (&tiles)[N]) {
  return {std::begin(tiles), std::end(tiles)};
}

double ceil_div(double a, double b) {
  return std::ceil(a / b);
}

// A GEMM kernel's prologue and final drain: setup, the first tile's pipeline fill and the last
// tile's epilogue, exposed once per kernel (about 1.5 us on Hopper; dev half of the H200 run).
constexpr double kStartupCycles = 3000;
// Operand tiles arrive as short rows (one K step, 64-256 elements) from rows far apart in memory:
// DRAM serves such strided bursts below the rate of one linear stream (*dev*: weight-streaming
// GEMMs at m <= 128 sustain about 0.88 of the copy rate on the H100 and H200). Set before the
// dirty lines' write-backs were charged (models/l2_writeback.h); with them, dev GEMMs are flat over
// 0.88-0.96 (H100 calibrated 5.89-5.96%), so it stayed.
// The output tiles leave the same way (rows of tn elements, far apart) and are charged in the same
// stream at this share (dram_write_bytes left 0). Timed apart at the store rate (2026-11-28), dev moved
// by under 0.1 point either way (5.91 -> 5.90% with this share refit to 0.92, 5.99% at 0.88): kept.
constexpr double kTileReadEfficiency = 0.88;

// Share of the SM's shared memory a GEMM kernel gives its operand pipeline stages; the rest holds
// the epilogue's staging tile and the pipeline barriers (CUTLASS sm90 collective builders' stage
// count; library fact).
constexpr double kSharedBudgetFraction = 0.85;

// Split-K factors libraries try, and their limits: each split keeps at least this many K steps,
// and the grid stays under this many blocks per SM (cuBLASLt heuristics as seen in its kernel
// names; library fact).
constexpr double kSplitKFactors[] = {1, 2, 3, 4, 6, 8, 12, 16, 24, 32};
constexpr double kMinKStepsPerSplit = 4;
constexpr double kMaxSplitBlocksPerSm = 6;
// Pipeline stages a kernel allocates at most, and at least (load one while computing another).
constexpr double kMaxStages = 16;
constexpr double kMinStages = 2;
// Threads and registers: Hopper warp-specialized kernels run one producer and two consumer
// warpgroups (384 threads) for tiles of 128x128 and up, one consumer below, at 168 registers per
// thread (CUTLASS sm90 register reconfiguration); SIMT kernels 256 threads at 128 registers (FP32
// ones: 32 threads a warp of their tile's warps, kFp32SimtTiles).
constexpr int kLargeTileThreads = 384;
constexpr int kTileThreads = 256;
constexpr int kTensorRegisters = 168;
constexpr int kSimtRegisters = 128;
constexpr double kLargeTileArea = 128 * 128;
// FP64 SIMT GEMMs step K 16 elements at a time (CUTLASS SIMT tiles; FP32: kFp32SimtKStep); two
// blocks share an SM.
constexpr double kSimtKStep = 16;
constexpr int kSimtBlocksPerSm = 2;
// Per-tile serial cycles: the first stages' barrier waits and the epilogue's store, half of it
// exposed, draining 64 bytes per cycle through shared memory (dev half of the H200 run).
constexpr double kTileFixedCycles = 600;
constexpr double kEpilogueBytesPerCycle = 64;
constexpr double kEpilogueExposedShare = 0.5;
// Tiles larger than 128x128 run cuBLAS's cooperative kernels (nvjet_*_256x128_*_coopA,
// _192x192_*_coopB, _320x128_*_coopB, _128x224_*_coopA in the dev and calibration profiles; tiles
// of 128x128 and below name no "coop": ping-pong kernels). Both consumer warpgroups work on one
// tile, so its epilogue runs after its K loop with the tensor cores idle: the tile's fixed cycles
// and its whole output tile's drain through shared memory (not only the exposed share above) add
// to its mainloop instead of hiding under the other warpgroup's. Adding the exposed share only
// (dev split gemm MAPE 7.6 / 7.8 / 9.2 / 10.0% on the calibrated H100, catalog H100, calibrated
// H200, catalog H200) fits less well than the whole drain (7.5 / 7.7 / 9.1 / 9.9%); charging
// ping-pong tiles too fits worse (7.8 / 8.0 / 9.6 / 10.3%).
constexpr double kCooperativeMinTileArea = 128 * 128;
// A cooperative tile's output leaves through a TMA store from the shared-memory staging tile that
// the next tile's epilogue reuses: part of each tile's DRAM write time, at the SM's share of the
// device's DRAM rate, adds to its mainloop (the rest overlaps the next tile's loads). Short-K, large
// GEMMs, whose output writes take as long as their MMAs, show it: dev split gemm-0733
// (13824x5120x256 A^T, 192x192 coopB) -23 / -18% on the H100 / H200 before, gemm-0911 (8192x8192x128)
// -6 / -14%, gemm-0164 (6704x4416x144 fp16) -6 / -14%; tuning sets 4096x4096x256 A^T -11 / -12%,
// 11008x4096x256 A^T -12%: each kernel lasts about the longer of its MMA and write times plus 0.4x
// the shorter. Fit on the dev split and the H100 tuning sets with the refit profiles (calibrated
// H100 / catalog H100 / calibrated H200 / catalog H200 gemm MAPE; tuning / tuning2 calibrated): 0:
// 6.73 / 6.78 / 7.97 / 9.10%, 10.08 / 9.56%; 0.15: 6.52 / 6.57 / 7.82 / 8.90%, 9.97 / 9.53%; 0.25:
// 6.42 / 6.52 / 7.80 / 8.77%, 9.87 / 9.49%; 0.35: 6.45 / 6.61 / 7.88 / 8.77%, 9.88 / 9.47%; 0.5:
// 6.53 / 6.80 / 8.02 / 8.95%, 9.96 / 9.50%. 0.25. cuBLAS's kernels only: cuDNN's convolution tiles
// (GemmShape::tiles) keep their epilogue as it was (charging them moved the H100 dev conv2d MAPE
// 7.34 -> 7.49%).
constexpr double kCoopStoreExposedShare = 0.25;
// Libraries never pick tiles more than twice the problem along a side (beyond 64).
constexpr double kMaxTileOvershoot = 2;
// The overshoot rule measures a problem side of at least the smallest tile side (8), and tiles up
// to 64 along a side are always tried (assumption, matching the skinny tiles above).
constexpr double kSmallestTileSide = 8;
constexpr double kAlwaysTriedTileSide = 64;
// Tensor-core kernels run one block per SM (their stages fill its shared memory; library fact).
constexpr int kTensorBlocksPerSm = 1;
// Tensor-core tiles of at least kMulticastMinTileSide along both sides run as 2-CTA clusters; each
// CTA loads half of the multicast A tile. Library fact: cuBLAS's nvjet kernel names carry a cluster
// shape (dev and calibration profiles: nvjet_sm90_tst_96x128_64x6_2x1, _192x96_64x5_1x2,
// _128x128_64x6_2x1, _256x128_64x4_1x2). Smaller tiles name clusters too (_64x64_64x13_2x1,
// _64x8_64x16_2x4), but the threshold is chosen on data: charging multicast from 64 made the dev
// split better (gemm 7.90 -> 7.83% on the calibrated H100) but moved the H100 llama125m trace's
// 768x768x8192 GEMMs off split-K (trace GEMM per-kernel MAPE 5.9 -> 6.7%), and from 8 on made the
// dev split's weight-streaming GEMMs (m <= 64, long K) 8-18% too fast. Fit on the dev split and the
// H100 traces: 96 (so 96x128 and 128x96 tiles multicast, as cuBLAS's 96x128_64x6_2x1 of gemm-0738).
constexpr double kClusterCtas = 2;
constexpr double kMulticastMinTileSide = 96;
// Segment-K (GemmShape::segment_k): cuDNN's sm90 convolution kernels run it ("execute_segment_k_on"
// and an init_device_workspace kernel in the H100 and H200 profiles) for grids of 160 tiles (1.2
// waves) at an executed K of 5,760 (conv2d-0354, calibration split) and 11,520 (conv2d-0355, dev),
// not at 1,152 (conv2d-0329, 1.5 waves) or 2,880 (conv2d-0349, 1.2 waves), nor under one wave at
// 11,520 (conv2d-0356, 0.6 waves). Library facts; the K boundary between 2,880 and 5,760 and the
// two-wave upper end are assumptions.
constexpr double kSegmentKMinDepth = 4096;
constexpr double kSegmentKMaxWaves = 2;
// Compute capability that introduced wgmma and thread-block clusters (Hopper; CUDA programming
// guide): below it mma.sync is the library path and no cluster multicasts.
constexpr int kHopperCcMajor = 9;
// Aligned tf32 GEMMs on Hopper: cuBLAS runs its sm90 wgmma kernels
// (sm90_xmma_gemm_f32f32_tf32f32_f32_*_tilesize64x128x32_*, 64x64x32, 128x128x32, 128x256x32) only
// for larger problems; small ones run CUTLASS's Ampere kernels on warp-level mma.sync
// (cutlass_80_tensorop_s1688gemm_64x64_32x6_*_align4, 128x64_16x6, 64x64_16x6: CUTLASS 2.x, no
// clusters, the epilogue after the K loop). In the H100 profiles (dev split and tuning sets) every
// aligned tf32 GEMM of at most 0.37 GFLOP ran the sm80 kernels (512^3, 7840x184x128, 128^3 x64,
// 64^3 x256, down to 64^3), every one of 0.82 GFLOP and more the sm90 ones (1568x256x1024, the 1x1
// convolution tune-conv2d-0423; 1024^3, 952x352x3536, ...). Boundary: their geometric mean
// (assumption).
constexpr double kTf32Sm80MaxFlops = 0.55e9;
// Hopper's wgmma reads tf32 operands from shared memory K-major only (16-bit ones either way: the
// PTX ISA's wgmma.mma_async, "transpose" valid for .f16/.bf16 alone). A PyTorch product whose A is
// stored transposed (x^T @ W: A M-major, B N-major, both MN-major) runs cuBLAS's sm90 tf32 kernel for
// that layout (sm90_xmma_gemm_f32f32_tf32f32_f32_nt_n_*), which transposes both tiles on their way to
// the tensor cores. Dev probe gemm-layouts (validation/h100-sxm/probe-gemm-layouts.json, H100): five
// shapes of 1.1-58 GFLOP run 1.23-1.39x their row-major (nn) time and 1.32-1.58x the fastest layout's
// (both K-major), where one MN-major operand costs -11% to +20% (nn, tt; within the rate the nn-heavy
// broad set calibrated). Its share of the tensor rate: the mean ratio of the nn to the A^T time on those
// five (0.75).
constexpr double kTf32BothMnMajorEfficiency = 0.75;
// Those sm80 kernels run one 4-warp block per SM at these sizes, one warp per sub-partition: each K
// step waits on its shared-memory fragment loads and the mma.sync chain instead of hiding them under
// other warps (H100 profiles: 512^3 in 64x64 tiles, 64 blocks of 32 K steps of 16, takes 7.0 us
// where its MMAs need under 2 us). Fit on the dev split (calibrated H100 / catalog H100 / calibrated
// H200 / catalog H200 gemm MAPE) and the H100 tuning sets (-tuning / -tuning2, calibrated): 0 cycles
// 6.91 / 6.91 / 8.21 / 9.28%, 10.13 / 9.83%; 200: 6.80 / 6.83 / 8.12 / 9.22%, 10.13 / 9.82%; 300:
// 6.80 / 6.84 / 8.08 / 9.21%, 10.13 / 9.79%; 400: 6.94 / 6.98 / 8.22 / 9.35%, 10.13 / 9.80%. 300.
constexpr double kTf32Sm80KStepCycles = 300;
// cuBLAS's split-K writes each split's partial tile to its own slice of the workspace and sums them
// in a separate cublasLt::splitKreduce_kernel: no workspace memset runs first (dev split and tuning
// sets, H100: none of the 118 GEMMs whose profile holds a splitKreduce_kernel ran a Memset).
// Split-K partials are written and reduced in fp32 (cuBLAS split-K workspace; library fact), and
// the reduce kernel spends this many lane instructions per partial read (load, convert, add,
// address; assumption).
constexpr double kPartialBytes = 4;
constexpr double kReduceInstructionsPerPartial = 4;
// The reduce kernel's own fixed duration: cublasLt::splitKreduce_kernel runs at least 1.6-2.0 us in
// the profiles even at a few hundred output elements (dev split and tuning sets, H100), where the
// streaming model of its bytes gives about 0.5 us. Fit on the dev split and tuning sets: 1,000 /
// 2,000 / 3,000 cycles gave dev gemm MAPE 7.14 / 7.06 / 7.08% (calibrated H100) and 8.86 / 8.68 /
// 8.62% (calibrated H200); 2,000 (about 1 us) brings the small reduces to 1.4-1.5 us.
constexpr double kReduceStartupCycles = 2000;
// DRAM round trips a tile waits for serially: its first stages' loads (the rest are pipelined).
constexpr double kTileDramRounds = 1;
// K step of a tensor-core stage: one 128-byte operand row (wgmma kernels) or one 64-byte row
// (mma.sync kernels), never below 8 elements (library fact: CUTLASS tile K of 64 bf16 / 128 fp8,
// 32 bf16 for sm80 kernels; 8 is the mma instruction's smallest K).
constexpr double kTensorKStepBytes = 128;
constexpr double kWarpMmaKStepBytes = 64;
constexpr double kMinKStepElements = 8;
// Rasterization search: wave shapes tried grow by this factor in rows (assumption: a coarse
// search; finer steps change the byte count by little).
constexpr double kRasterRowsGrowth = 1.5;
// Shapes with at most this many rows (or columns) run cuBLAS's GEMV kernel on the FMA path, which
// skips most of a GEMM's prologue (half its startup; assumption).
constexpr double kGemvMaxRows = 4;
constexpr double kGemvStartupCycles = kStartupCycles / 2;

// cuBLAS's fallback kernels are CUTLASS 2.x GEMMs: the sm75 ones (16-bit align1,
// cutlass_75_tensorop_*_s1688gemm_*) run a two-stage pipeline staged through registers (no cp.async
// before sm80; CUTLASS's DefaultGemmConfiguration for Sm75 tensor ops: kStages = 2), the sm80 ones
// (tf32, align2) three cp.async stages (cutlass_80_tensorop_s1688gemm_128x128_32x3_*, "x3"); their
// warps hold 32x32 of C in 64x64 tiles and below, 64x64 in larger ones, and several blocks share
// an SM as far as registers and shared memory allow (library facts: CUTLASS 2.x default warp shapes
// and the stage counts in the profiled kernel names).
constexpr double kRegisterStagedStages = 2;
constexpr double kCpAsyncFallbackStages = 3;
constexpr double kSmallWarpTileSide = 32;
constexpr double kWarpTileSide = 64;
constexpr double kSmallTileSide = 64;
// Each K step of an sm75 kernel lasts at least this long: the next step's narrow global loads go
// to registers while the current step computes, and one or two elements per load leave a lone
// block waiting on them (H100 profiles: a lone 64x64 block takes about 1 us a K step of 32 at any
// K, 251x2039x251 9.5 us, 55x4745x103 5.3 us, where its MMAs need 0.2 us). Co-resident blocks
// overlap their waits. Fit on the H100 tuning sets (kernels-tuning*.json, all dev) and the dev
// split, H100 and H200: 1000 cycles (500: tuning 11.8 / 11.1%, dev 7.32 / 8.81%; 1000: 11.0 /
// 10.6%, 7.23 / 8.75%; 1500: 11.0 / 11.0%, 7.24 / 8.74%).
constexpr double kRegisterStagedKStepCycles = 1000;

int cutlass2_threads(const GemmTile& t) {
  const double w = std::max(t.tm, t.tn) <= kSmallTileSide ? kSmallWarpTileSide : kWarpTileSide;
  return static_cast<int>(32 * std::ceil(t.tm / w) * std::ceil(t.tn / w));
}

// Share of a SIMT GEMM thread's issue slots that are FFMAs at `outputs` outputs a thread.
double simt_ffma_share(double outputs) {
  const double loads = 2 * std::sqrt(outputs) / kSimtFloatsPerSharedLoad;
  return outputs / (outputs + loads + kSimtOtherInstructionsPerK);
}

// Rate of an FP32 SIMT tile of `t.warps` warps against the calibrated one, with `resident` of its
// blocks on each SM: the per-thread tile's FFMA share, and the sub-partitions its warps occupy.
double simt_tile_efficiency(const Tile& t, double resident, const device::Device& gpu) {
  const double outputs = t.tm * t.tn / (kWarpThreads * t.warps);
  const double sub_partitions = double(gpu.simt_lanes()) / gpu.warp_size();
  const double lanes_used = std::min(1.0, resident * t.warps / sub_partitions);
  return simt_ffma_share(outputs) / simt_ffma_share(kSimtCalibratedOutputsPerThread) * lanes_used;
}

Pipe pipe_for(DataType t, const device::Device& gpu) {
  if (t == DataType::fp64) return Pipe::fp64;
  if (t == DataType::fp32) return Pipe::fp32;
  gpu.require_tensor(t);  // throws when the GPU lacks this data type
  return Pipe::tensor;
}

// The library path's tensor-core rate follows the SM clock the power limiter leaves for the
// window's matrix share (device/power_limiter.h); the fitted efficiency holds at full matrix duty.
double limited_clock_factor(Pipe pipe, const device::Device& gpu) {
  return pipe == Pipe::tensor ? gpu.matrix_clock_factor() : 1.0;
}

}  // namespace

double gemm_k_step(DataType t) {
  return std::max(kMinKStepElements, kTensorKStepBytes / bytes_per_element(t));
}

double warp_mma_k_step(DataType t) {
  return std::max(kMinKStepElements, kWarpMmaKStepBytes / bytes_per_element(t));
}

double gemm_dram_bytes(const GemmShape& g, double tm, double tn, double concurrent, double l2_reuse_bytes) {
  const double e_in = bytes_per_element(g.in);
  const double a = g.a_unique_bytes > 0 ? g.a_unique_bytes : g.m * g.k * e_in;
  const double b = g.k * g.n * e_in;
  const double c = g.m * g.n * bytes_per_element(g.out);
  const double tiles_m = ceil_div(g.m, tm);
  const double tiles_n = ceil_div(g.n, tn);
  const double tiles = tiles_m * tiles_n;
  // Operands that fit in the L2's reusable share are read from DRAM once (device/device.h).
  if (a + b <= l2_reuse_bytes) return g.batch * (a + b + c);
  // Otherwise each wave of `concurrent` tiles reads its panels: the wave covers a rectangle of
  // rows x cols tiles chosen (by rasterization) to minimize the panels it touches.
  const double w = std::max(1.0, std::min(concurrent, tiles));
  double best = 1e300;
  for (double rows = 1; rows <= std::min(tiles_m, w); rows = std::ceil(rows * kRasterRowsGrowth)) {
    const double cols = std::min(tiles_n, std::ceil(w / rows));
    const double a_frac = std::min(1.0, rows / tiles_m);
    const double b_frac = std::min(1.0, cols / tiles_n);
    best = std::min(best, a_frac * a + b_frac * b);
  }
  const double waves = std::ceil(tiles / w);
  const double no_reuse_a = tiles_n * a;  // every column of tiles rereads all of A
  const double no_reuse_b = tiles_m * b;
  const double per_batch = std::clamp(waves * best, a + b, no_reuse_a + no_reuse_b);
  return g.batch * (per_batch + c);
}

namespace {
// One persistent CTA per SM walks an equal share (tiles / SMs) of all tiles' K iterations of depth
// `k_exec`; a tile split between two CTAs leaves one fp32 partial tile per SM, written and read
// back in the kernel. A workspace memset runs first.
PlanOption segment_k_option(const GemmShape& g, const Tile& t, double k_exec, double tiles, Pipe pipe,
                            const device::Device& gpu) {
  const double e_in = bytes_per_element(g.in);
  const double sms = gpu.sms();
  const double share = tiles / sms;
  const double stage_bytes = (t.tm + t.tn) * gemm_k_step(g.in) * e_in;
  const double out_tile_bytes = t.tm * t.tn * bytes_per_element(g.out);
  const bool multicast_b = g.cluster_multicast_b && ceil_div(g.m, t.tm) >= kClusterCtas;
  KernelPlan k;
  k.name = "gemm " + std::to_string(int(t.tm)) + "x" + std::to_string(int(t.tn)) + " segment-k";
  k.blocks = sms;
  k.threads = t.tm * t.tn >= kLargeTileArea ? kLargeTileThreads : kTileThreads;
  k.registers = kTensorRegisters;
  k.shared_bytes =
      std::min(std::floor(kSharedBudgetFraction * gpu.shared_bytes_per_sm() / stage_bytes), kMaxStages) *
      stage_bytes;
  k.max_blocks_per_sm = kTensorBlocksPerSm;
  k.pipe = pipe;
  k.dtype = g.in;
  k.pipe_flops = 2 * t.tm * t.tn * k_exec * share;
  k.pipe_efficiency = g.efficiency * std::min(1.0, std::min(t.tm, t.tn) / gpu.tensor_tile_rows()) *
                      limited_clock_factor(pipe, gpu);
  k.l2_bytes = ((g.a_loaded_share * t.tm + (multicast_b ? 1.0 / kClusterCtas : 1.0) * t.tn) * k_exec * e_in +
                out_tile_bytes) *
               share;
  const double partials = 2 * sms * t.tm * t.tn * kPartialBytes;
  const double dram = gemm_dram_bytes(g, t.tm, t.tn, sms, gpu.l2_reuse_bytes()) + partials;
  k.dram_bytes = dram / sms;
  const double writes = g.batch * g.m * g.n * bytes_per_element(g.out) + partials / 2;
  k.dirty_evicted_bytes = evicted_dirty_bytes_beyond_writes(dram - writes, writes, gpu) / sms;
  k.dram_read_efficiency = kTileReadEfficiency;
  k.dram_rounds = kTileDramRounds;
  k.fixed_cycles =
      std::ceil(share) * (kTileFixedCycles + kEpilogueExposedShare * out_tile_bytes / kEpilogueBytesPerCycle);
  k.extra_us = gpu.cycles_to_us(std::max(0.0, std::ceil(share) - 1) * g.a_serial_cycles_per_byte *
                                g.a_loaded_share * t.tm * k_exec * e_in);
  k.startup_cycles = kStartupCycles;
  PlanOption option;
  option.name = k.name;
  option.kernels.push_back(memset_kernel(gpu));
  option.kernels.push_back(k);
  return option;
}
}  // namespace

std::vector<PlanOption> gemm_options(const GemmShape& g, const device::Device& gpu) {
  const bool tensor = pipe_for(g.in, gpu) == Pipe::tensor;
  const bool warp_mma = tensor && g.warp_mma;
  // Before Hopper mma.sync is the library path itself: its rate is the tensor rate.
  const Pipe pipe = warp_mma && gpu.cc_major() >= kHopperCcMajor ? Pipe::mma_sync : pipe_for(g.in, gpu);
  const double e_in = bytes_per_element(g.in);
  const double e_out = bytes_per_element(g.out);
  const double tk = g.fallback_wmma ? kWmmaFallbackKStep
                    : !tensor       ? (g.in == DataType::fp32 ? kFp32SimtKStep : kSimtKStep)
                    : warp_mma      ? warp_mma_k_step(g.in)
                                    : gemm_k_step(g.in);
  const double smem_budget = kSharedBudgetFraction * gpu.shared_bytes_per_sm();
  const double l2_reuse_bytes = gpu.l2_reuse_bytes();
  const int sms = gpu.sms();
  const TileList tiles = !g.tiles.empty() ? TileList{g.tiles.data(), g.tiles.data() + g.tiles.size()}
                         : !tensor && g.in == DataType::fp32 ? tile_list(kFp32SimtTiles)
                         : !tensor                           ? tile_list(kSimtTiles)
                         : g.in == DataType::tf32            ? tile_list(kTf32Tiles)
                         : g.fallback_wmma                   ? tile_list(kWmmaFallbackTiles)
                         : g.unaligned_fallback              ? tile_list(kUnaligned16BitTiles)
                                                             : tile_list(kTensorTiles);

  std::vector<PlanOption> options;
  for (const Tile& t : tiles) {
    // Skip tiles far larger than the problem: libraries never pick them.
    if (t.tm > kMaxTileOvershoot * std::max(g.m, kSmallestTileSide) && t.tm > kAlwaysTriedTileSide) continue;
    if (t.tn > kMaxTileOvershoot * std::max(g.n, kSmallestTileSide) && t.tn > kAlwaysTriedTileSide) continue;
    // The fallback's heuristic keeps its 64x64 tile for small problems only (a side of at most
    // kFallbackSmallSide, a K shorter than kFallbackShortK, or both sides within kFallbackSmallProblem);
    // otherwise it runs 128x128 and up, split over K where those leave SMs idle.
    if (g.unaligned_fallback && !g.fallback_wmma && t.tm * t.tn < kLargeTileArea &&
        !(std::min(g.m, g.n) <= kFallbackSmallSide || g.k < kFallbackShortK ||
          std::max(g.m, g.n) <= kFallbackSmallProblem))
      continue;
    const double tiles_mn = ceil_div(g.m, t.tm) * ceil_div(g.n, t.tn) * g.batch;
    // K steps the kernel executes: implicit GEMM pads each filter tap to whole K steps
    // (k_padding_factor), so the executed depth is k x factor, rounded to the step once.
    const double k_steps_total = ceil_div(g.k * g.k_padding_factor, tk);
    // cuBLAS's sm75 fallback and fp32 SIMT heuristics split K whenever 64x64 tiles fill under
    // g.split_max_fill of the SMs (down to one K step per split), and never run those grids unsplit.
    const bool forced_split =
        g.split_k &&
        ceil_div(g.m, kFallbackSplitFillTileSide) * ceil_div(g.n, kFallbackSplitFillTileSide) * g.batch <
            g.split_max_fill * sms &&
        k_steps_total >= 2;
    const double min_steps = forced_split ? 1.0 : kMinKStepsPerSplit;
    for (double split : kSplitKFactors) {
      if (split == 1 && forced_split) continue;
      if (split > 1 &&
          (!g.split_k || k_steps_total / split < min_steps || tiles_mn * split > kMaxSplitBlocksPerSm * sms))
        continue;
      const double k_per_split = std::ceil(k_steps_total / split) * tk;
      const double blocks = tiles_mn * split;

      const double stage_bytes = (t.tm + t.tn) * tk * e_in;
      // A tile needs two stages in flight (load one while computing the other); GPUs with less
      // shared memory (Turing: 64 KB) never run the largest tiles.
      if (std::floor(smem_budget / stage_bytes) < kMinStages) continue;
      // The fallback's CUTLASS 2.x kernels run their fixed stage counts where shared memory holds them.
      const double stages_fit = std::min(std::floor(smem_budget / stage_bytes), kMaxStages);
      const double stages = g.register_staged      ? std::min(kRegisterStagedStages, stages_fit)
                            : g.unaligned_fallback ? std::min(kCpAsyncFallbackStages, stages_fit)
                                                   : stages_fit;
      const double smem = stages * stage_bytes;
      const double area = t.tm * t.tn;

      KernelPlan k;
      k.name = std::string(warp_mma ? "mma.sync gemm "
                           : tensor ? "gemm "
                                    : "simt gemm ") +
               std::to_string(int(t.tm)) + "x" + std::to_string(int(t.tn)) +
               (split > 1 ? " split-k " + std::to_string(int(split)) : "");
      k.blocks = blocks;
      k.threads = tensor && !warp_mma && area >= kLargeTileArea ? kLargeTileThreads : kTileThreads;
      k.registers = tensor ? kTensorRegisters : kSimtRegisters;
      k.shared_bytes = smem;
      k.max_blocks_per_sm = tensor ? kTensorBlocksPerSm : kSimtBlocksPerSm;
      if (g.unaligned_fallback) {
        k.threads = cutlass2_threads(t);
        k.max_blocks_per_sm = 0;
      }
      k.pipe = pipe;
      k.dtype = g.in;
      const double k_exec = k_per_split;
      k.pipe_flops = 2 * t.tm * t.tn * k_exec;
      // wgmma needs 64 rows per warpgroup: a side narrower than 64 wastes tensor-core issue.
      const double narrow = std::min(t.tm, t.tn);
      const bool simt_warps = !tensor && t.warps > 0;
      if (simt_warps) k.threads = static_cast<int>(kWarpThreads * t.warps);
      k.pipe_efficiency = g.efficiency *
                          (warp_mma || simt_warps ? 1.0 : std::min(1.0, narrow / gpu.tensor_tile_rows())) *
                          limited_clock_factor(pipe, gpu);
      if (simt_warps) {
        const double resident =
            std::min(ceil_div(blocks, sms), double(gpu.blocks_per_sm(k.resources(), k.name)));
        k.pipe_efficiency *= simt_tile_efficiency(t, std::max(1.0, resident), gpu);
      }
      // The unaligned fallback's narrow loads set its rate as a share of the nominal peak, not of
      // the description's sustained mma.sync rate (gemm_alignment.h).
      if (g.unaligned_fallback && pipe == Pipe::mma_sync)
        k.pipe_efficiency *=
            kFallbackReferenceMmaSyncEfficiency * gpu.tensor_peak_per_sm(g.in) / gpu.pipe_rate(pipe, g.in);
      const double out_tile_bytes = t.tm * t.tn * (split > 1 ? kPartialBytes : e_out);
      // On Hopper and later, tensor-core tiles of 96x96 and up run as 2-CTA clusters that multicast
      // the A tile to both CTAs (thread-block clusters do not exist before compute capability 9).
      const double a_share = tensor && !warp_mma && g.cluster_multicast &&
                                     std::min(t.tm, t.tn) >= kMulticastMinTileSide &&
                                     gpu.cc_major() >= kHopperCcMajor
                                 ? 1.0 / kClusterCtas
                                 : 1.0;
      const double b_share = tensor && !warp_mma && g.cluster_multicast_b &&
                                     ceil_div(g.m, t.tm) >= kClusterCtas && gpu.cc_major() >= kHopperCcMajor
                                 ? 1.0 / kClusterCtas
                                 : 1.0;
      k.l2_bytes = (a_share * g.a_loaded_share * t.tm + b_share * t.tn) * k_exec * e_in + out_tile_bytes;
      const double concurrent = std::min(blocks, double(sms));
      double dram = gemm_dram_bytes(g, t.tm, t.tn, concurrent / split, l2_reuse_bytes);
      if (split > 1)
        dram += g.batch * g.m * g.n * kPartialBytes * split;  // fp32 partials (leave L2 under load)
      k.dram_bytes = dram / blocks;
      // The dirty lines its operand reads evict are written back while it streams (models/l2_writeback.h).
      const double writes = g.batch * g.m * g.n * (split > 1 ? kPartialBytes * split : e_out);
      k.dirty_evicted_bytes = evicted_dirty_bytes_beyond_writes(dram - writes, writes, gpu) / blocks;
      k.dram_read_efficiency = kTileReadEfficiency;
      // Hopper's wgmma kernels (nvjet, sm90_xmma) fetch their operand tiles with TMA bulk copies, timed
      // as such (sim/kernel_timer.cpp): the bulk-copy L2 rate, no single-SM load limit. Dev: H100
      // calibrated GEMMs 5.93 -> 5.91%, the layout probe 9.1 -> 8.0% (its long-K GEMMs, one wave of
      // 128x128 tiles bound by the L2, +23-28% -> +15-20%), H200 calibrated GEMMs 7.65 -> 7.35%.
      if (tensor && !warp_mma && gpu.cc_major() >= kHopperCcMajor) k.bulk_async_loads = true;
      // The first stages' loads; the epilogue store that the next tile cannot hide; and, once per
      // kernel, the prologue (tensor-map fetch, barrier setup) and the last tile's drain.
      k.dram_rounds = kTileDramRounds;
      k.fixed_cycles = kTileFixedCycles + kEpilogueExposedShare * out_tile_bytes / kEpilogueBytesPerCycle;
      if (g.a_serial_cycles_per_byte > 0) {
        const double later_tiles = std::max(0.0, ceil_div(blocks, double(sms) * kTensorBlocksPerSm) - 1);
        k.extra_us = gpu.cycles_to_us(later_tiles * g.a_serial_cycles_per_byte * g.a_loaded_share * t.tm *
                                      k_exec * e_in);
      }
      k.startup_cycles = kStartupCycles;
      // cuBLAS's Hopper tensor-core kernels (nvjet, sm90 xmma) launch one CTA per SM that loops over
      // the tiles (the 1B model's GEMMs: grids of 132 CTAs, validation/runs/h100x4/dp-train/).
      k.persistent = tensor && !warp_mma && gpu.cc_major() >= kHopperCcMajor;
      // Cooperative kernels: the epilogue keeps the tensor cores idle after each K loop, and cuBLAS's
      // wait out a share of their output's DRAM store (kCoopStoreExposedShare).
      if (tensor && !warp_mma && area > kCooperativeMinTileArea) {
        const double mainloop_us = k.pipe_flops / (gpu.pipe_rate(pipe, g.in) * k.pipe_efficiency);
        const double store_us =
            g.tiles.empty() ? kCoopStoreExposedShare * out_tile_bytes / (gpu.rates().dram / sms) : 0.0;
        const double epilogue_us =
            gpu.cycles_to_us(kTileFixedCycles + out_tile_bytes / kEpilogueBytesPerCycle) + store_us;
        k.pipe_efficiency *= mainloop_us / (mainloop_us + epilogue_us);
      }

      // The sm75 kernels' K steps wait on their narrow loads (kRegisterStagedKStepCycles).
      if (g.register_staged) k.fixed_cycles += kRegisterStagedKStepCycles * (k_per_split / tk);
      // Kernels whose lone warps wait out each K step (GemmShape::k_step_cycles).
      k.fixed_cycles += g.k_step_cycles * (k_per_split / tk);
      // Kernels without a warp-specialized epilogue store each tile after its K loop: the SMs'
      // tiles of a wave drain their outputs through DRAM while no K loop runs.
      if (g.exposed_epilogue) {
        const double concurrent_tiles =
            std::min(blocks, gpu.blocks_per_sm(k.resources(), k.name) * double(sms));
        const double mainloop_us = k.pipe_flops / (gpu.pipe_rate(pipe, g.in) * k.pipe_efficiency);
        const double epilogue_us = concurrent_tiles * out_tile_bytes / gpu.rates().dram;
        k.pipe_efficiency *= mainloop_us / (mainloop_us + epilogue_us);
      }
      PlanOption option;
      option.name = k.name;
      option.kernels.push_back(k);
      if (split > 1) {
        const double elements = g.batch * g.m * g.n;
        option.kernels.push_back(streaming_kernel("split-k reduce", elements,
                                                  elements * kPartialBytes * split, elements * e_out,
                                                  kReduceInstructionsPerPartial * split, gpu));
        option.kernels.back().startup_cycles = kReduceStartupCycles;
      }
      options.push_back(std::move(option));
    }
    if (g.segment_k && tensor && !warp_mma && tiles_mn > sms && tiles_mn < kSegmentKMaxWaves * sms &&
        g.k * g.k_padding_factor >= kSegmentKMinDepth)
      options.push_back(segment_k_option(g, t, k_steps_total * tk, tiles_mn, pipe, gpu));
  }
  // Matrix-vector shapes: libraries switch to a GEMV kernel that streams the matrix once.
  if (!tensor && std::min(g.m, g.n) <= kGemvMaxRows) {
    const double rows = std::max(g.m, g.n);
    const double matrix = rows * g.k * e_in * g.batch;
    KernelPlan k = streaming_kernel("gemv", rows * g.k * g.batch, matrix + std::min(g.m, g.n) * g.k * e_in,
                                    std::min(g.m, g.n) * rows * e_out * g.batch, 2 * std::min(g.m, g.n), gpu);
    k.startup_cycles = kGemvStartupCycles;
    const double gemv_writes = std::min(g.m, g.n) * rows * e_out * g.batch;
    k.dirty_evicted_bytes =
        evicted_dirty_bytes_beyond_writes(k.blocks * k.dram_bytes - gemv_writes, gemv_writes, gpu) / k.blocks;
    options.push_back(PlanOption{"gemv", {k}, 0});
  }
  if (options.empty()) throw UnsupportedError("no GEMM configuration fits this GPU");
  return options;
}

namespace {
// cuBLAS's skinny-M fp32 kernel for a linear layer's forward layout (x @ W^T, fp32 with TF32 off, 2 to
// 11 rows: gemmSN_TN_kernel<float, 128, 16, ...> in every such case of the dev probe,
// validation/h100-sxm/probe-skinny-fp32-gemm.json; 1 row runs the GEMV kernels, 16 an sm80 SIMT
// GEMM): blocks of 128 threads, each computing 16 output columns over all of K for every row (library
// facts from the template), stream their 16 weight rows with a few loads in flight, one block an SM at
// a time (the probe's per-SM rate, 10-17 GB/s, does not grow with the blocks an SM is given: 64 to 688
// blocks on 132 SMs). The bytes a block keeps in flight are fit on the probe's 54 such cases (H100,
// dev): 4, 5, 6, 7 and 8 KB give 29.0, 20.9, 20.3, 21.9 and 24.3% (bias +17, +1, -9, -17, -22%);
// against 30.9% (bias -29%) for the GEMV and SIMT options it replaces. The rest is cuBLAS's template
// per row count (3, 8 and 11 rows run slower variants than 2, 4 and 6), not modelled.
constexpr double kSkinnyMinRows = 2;
constexpr double kSkinnyMaxRows = 11;
constexpr double kSkinnyColumnsPerBlock = 16;
constexpr int kSkinnyThreads = 128;
constexpr int kSkinnyRegisters = 64;  // assumption: occupancy is set by kSkinnyBlocksPerSm
constexpr int kSkinnyBlocksPerSm = 1;
constexpr double kSkinnyBytesInFlight = 6144;
constexpr const char* kSkinnyVendor = "NVIDIA";

PlanOption skinny_fp32_option(const wl::GemmOp& g, const device::Device& gpu) {
  const double m = double(g.m), n = double(g.n), k = double(g.k);
  const double e = bytes_per_element(DataType::fp32);
  KernelPlan p;
  p.name = "skinny fp32 gemm (gemmSN)";
  p.blocks = std::ceil(n / kSkinnyColumnsPerBlock);
  p.threads = kSkinnyThreads;
  p.registers = kSkinnyRegisters;
  p.max_blocks_per_sm = kSkinnyBlocksPerSm;
  p.pipe = Pipe::fp32;
  p.dtype = DataType::fp32;
  p.pipe_flops = 2 * m * kSkinnyColumnsPerBlock * k;
  const double weight = kSkinnyColumnsPerBlock * k * e;
  const double out = m * kSkinnyColumnsPerBlock * e;
  p.dram_bytes = weight + m * k * e / p.blocks + out;  // the rows of x are read once, shared
  p.dram_write_bytes = out;
  p.dirty_evicted_bytes =
      evicted_dirty_bytes_beyond_writes(p.blocks * (p.dram_bytes - out), p.blocks * out, gpu) / p.blocks;
  p.l2_bytes = weight + m * k * e + out;
  // Each round trip brings the block's in-flight bytes; the next waits for them.
  p.bytes_in_flight = kSkinnyBytesInFlight;
  p.dram_rounds = std::ceil(weight / kSkinnyBytesInFlight);
  p.startup_cycles = kGemvStartupCycles;
  return PlanOption{p.name, {p}, 0};
}
}  // namespace

std::vector<PlanOption> GemmModel::plan(const wl::Op& op, const device::Device& gpu) const {
  const auto& g = std::get<wl::GemmOp>(op);
  // cuBLAS's kernel, for one product (batched ones were not measured), on NVIDIA GPUs.
  if (g.dtype == DataType::fp32 && g.transpose_b && !g.transpose_a && g.batch == 1 &&
      double(g.m) >= kSkinnyMinRows && double(g.m) <= kSkinnyMaxRows && gpu.vendor() == kSkinnyVendor)
    return {skinny_fp32_option(g, gpu)};
  GemmShape shape;
  shape.m = static_cast<double>(g.m);
  shape.n = static_cast<double>(g.n);
  shape.k = static_cast<double>(g.k);
  shape.batch = static_cast<double>(g.batch);
  shape.in = g.dtype;
  shape.out = g.out_dtype;
  if (!gemm_operands_aligned(g) && gemm_alignment_efficiency(g) < 1) {
    // Unaligned operands: cuBLAS's narrow-load fallback, sm75/sm80 CUTLASS kernels on mma.sync.
    shape.warp_mma = true;
    shape.unaligned_fallback = true;
    shape.cluster_multicast = false;
    shape.efficiency = gemm_alignment_efficiency(g);
    shape.register_staged = gemm_fallback_is_sm75_align1(g);
    shape.fallback_wmma = shape.register_staged && g.dtype == DataType::fp16 &&
                          2 * shape.m * shape.n * shape.k * shape.batch <= kWmmaFallbackMaxFlops;
    if (shape.register_staged && !shape.fallback_wmma) shape.split_max_fill = kFallbackSplitMaxFill;
  }
  // Small aligned tf32 GEMMs on Hopper: cuBLAS's sm80 mma.sync kernels (kTf32Sm80MaxFlops).
  const bool small_tf32 = g.dtype == DataType::tf32 && !shape.unaligned_fallback &&
                          gpu.cc_major() >= kHopperCcMajor &&
                          2 * shape.m * shape.n * shape.k * shape.batch <= kTf32Sm80MaxFlops;
  if (g.dtype == DataType::tf32 && !small_tf32 && !shape.unaligned_fallback && g.transpose_a &&
      !g.transpose_b && gpu.cc_major() >= kHopperCcMajor)
    shape.efficiency *= kTf32BothMnMajorEfficiency;
  if (small_tf32) {
    shape.warp_mma = true;
    shape.cluster_multicast = false;
    shape.k_step_cycles = kTf32Sm80KStepCycles;
  }
  // cuBLAS's fp32 SIMT kernels split small grids' K (kFp32SplitMaxFill).
  if (g.dtype == DataType::fp32) shape.split_max_fill = kFp32SplitMaxFill;
  shape.exposed_epilogue =
      shape.unaligned_fallback || small_tf32 || g.dtype == DataType::fp32 || g.dtype == DataType::fp64;
  return gemm_options(shape, gpu);
}

}  // namespace gpucast::models
