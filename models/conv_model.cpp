#include "models/conv_model.h"

#include <algorithm>
#include <cmath>
#include <iterator>

#include "device/memory_granularity.h"
#include "models/conv_algorithm.h"
#include "models/conv_few_channel.h"
#include "models/conv_fma_direct.h"
#include "models/conv_fma_nchw.h"
#include "models/conv_prologue.h"
#include "models/gemm_model.h"
#include "models/helper_kernels.h"

namespace gpucast::models {
namespace {
// Implicit GEMM's address generation and halo loads cost tensor issue slots a plain GEMM keeps.
constexpr double kImplicitGemmEfficiency = 0.80;
// cuDNN's sm90 kernels are warp-specialized: a producer warp issues the gathers and the MMA
// warpgroups issue only wgmma, at the GEMM rate. Evidence, dev split: per K step after the kernel
// prologue (conv_prologue.h), 128x64 tiles (conv2d-1133) run at 0.72 of the tensor peak, 128x128
// (conv2d-0355, segment-k) at 0.73 on both GPUs. With the power limiter (device/power_limiter.h) the
// descriptions' tensor efficiency holds at full duty (0.744 of peak on the H100) and a do_bench'd conv,
// far below the knee, runs at boost, 1.17x that rate: 0.87 of peak, so these kernels reach 0.84 of the
// GEMM rate. Rescanned on the dev split after the limiter (0.80 / 0.85 / 0.90: sum of the four
// descriptions' conv2d MAPE 65.7 / 65.5 / 65.8; 1.0 before the limiter, 1.0 after it: 67.0).
// Rescanned on the dev split once the L2 serves these kernels' bulk copies faster
// (kBulkCopyL2RateOverBenchmark, sim/kernel_timer.cpp), which left the compute-bound kernels the residual
// (conv2d-0329, -1133 too slow; conv2d-1112 too fast, a tile cuDNN picks that the model does not).
// Conv2d MAPE calibrated H100 / catalog H100 / calibrated H200 / catalog H200, the H200 cases whose
// two runs disagree by more than 25% judged on the faster run (the first run's host artifacts):
// 0.85 8.01/8.12/6.39/7.06%, 0.88 7.98/8.02/-/-, 0.90 7.96/8.00/6.20/6.85%, 0.92 7.95/8.00/6.15/6.83%;
// the H100 tuning sets (kernels-tuning.json, kernels-tuning2.json, calibrated) 12.30/10.01% at 0.85,
// 12.03/9.81% at 0.90. 0.90, the low end of the flat optimum.
constexpr double kSm90ImplicitGemmEfficiency = 0.90;
// On the FMA path the same work issues from the same dispatch slots as the FMAs themselves
// (tap-offset lookups, bounds predicates, scalar gathers and shared-memory stores of the A tile),
// and cuDNN's FP32 kernels use small tiles (64x64x8 to 128x64x8, 2-3 stages) that reuse each
// loaded element less than an SGEMM's 128x128x8. Share of the FP32 GEMM rate they sustain: *dev*
// (FP32 3x3 and 7x7 stride-2 convolutions with TF32 off on the H100 and H200, channels_last,
// validation/runs/<gpu>/results.json C_conv2d_fwd: 0.55-0.58 of the GEMM rate, both shapes alike).
constexpr double kSimtImplicitGemmEfficiency = 0.55;
// cuDNN's FP32 FMA convolution kernels read channels as 4-element (16-byte) vectors: their names
// end ffma_aligna4_alignc4 (sm80_xmma_fprop_implicit_gemm_indexed_f32f32_..._tilesize64x64x8_
// stage3_..., in public TensorRT and PyTorch profiles; library fact). A tap's channels fill whole
// vectors: the 3-channel stem executes 4 of every tap.
constexpr double kSimtChannelVector = 4;
// Winograd F(2x2, 3x3): a 4x4 input tile gives a 2x2 output tile with 16 multiplies per channel
// pair instead of 36. The transforms are additions per tile, small next to C x K multiplies.
constexpr double kWinogradMultiplyReduction = 36.0 / 16.0;
// cuDNN's nhwcAddPaddingKernel copies the real channels into the zeroed padded copy element by
// element (scalar accesses, a 16-byte vector's worth of elements a thread; assumption), each
// element's NHWC index decomposed from the kernel's integer arguments (divisions and remainders: its
// signature takes eight ints), so it is bound by that index arithmetic: lane instructions per copied
// element. Fit on the dev split and the tuning sets, H100: its durations in the profiles run at 340-420
// copied elements per us whatever the element size and padding (conv2d-0320 and -1139;
// tune-conv2d-0449, -0455, -0465, -0470, -0491, -0495, -0496 of kernels-tuning.json and
// kernels-tuning2.json: 0.8 to 52 million elements); 12 (before: the zero-filled elements counted too)
// left the wide-channel copies (255 to 256 channels) 35% short.
constexpr double kPadInstructionsPerElement = 90;
// Each padding copy also lasts a fixed time beyond the launch that a memset does not: the smallest
// ones run 1.7-1.9 us in the profiles, where a memset of the same buffer runs 1.1 (dev conv2d-1144,
// -1159; tune-conv2d-0459, -0468, -0471, -0492 of kernels-tuning.json and kernels-tuning2.json, H100).
constexpr double kPadStartupCycles = 1500;
// Host time of each launch of the padding path (a memset or a padding copy) as a share of a plain
// library call's host time (a conv2d call that pads nothing: launch.host_eager_us +
// launch.host_library_us in the description). Measured, dev cases only, one H100 lease, 2026-11-28
// (calibration/runs/conv_pad_host.py, validation/runs/h100-sxm/conv-probes-2026-11-28/): back-to-back
// calls without synchronization took 30.1 us of host per call for the unpadded FP32 convolutions
// conv2d-1104 and -1150 and 13.8 us more per padding launch (median over thirteen padded cases,
// 7.9-18.6); the profiled call shows why: cuDNN queries four device attributes, the kernel's function
// attributes and its occupancy before each padding launch. 13.8 / 30.1 = 0.46. On a host of the
// description's speed the whole call (46-55 us) stays behind do_bench's flush; the padded cases'
// 10-60 us beyond their kernels in some leases' do_bench medians come from slower hosts (on that
// lease an unpadded call took 30.1 us of host where the calibrated H100 prices a library call at
// 16.6), which a description of one host does not follow.
constexpr double kPadLaunchHostShareOfLibraryCall = 0.46;
// nhwcAddPaddingKernel moves pixel rows that are not whole 16-byte vectors (3 bf16 channels, 257
// fp32 output channels) with scalar accesses at unaligned offsets: share of the streaming DRAM read
// rate it sustains. Fit on the dev split, H100+H200: conv2d-0320 (the 3-channel stem's input pad,
// 16.0 and 14.6 us) and conv2d-1152 (the copy out of 260 padded output channels, 154 and 117 us).
constexpr double kPadReadEfficiency = 0.55;
// The padded copies are zeroed with 16-byte vector stores, one lane instruction each
// (cudaMemsetAsync's kernel; library fact).
constexpr double kMemsetVectorBytes = 16;
constexpr double kMemsetInstructionsPerElement = 1;
// cuDNN's Hopper implicit-GEMM convolution kernels ship their own tile shapes, not cuBLAS's:
// sm90_xmma_fprop_implicit_gemm_<types>_nhwckrsc_nhwc_tilesize<M>x<N>x<K>_... in the H100 and H200
// profiles of the dev and calibration splits (validation/<gpu>/kernels.json). 16-bit: 64x64, 64x128,
// 128x64, 128x128, 256x64 and 256x128 (bf16 and fp16), 128x32 (fp16 at 33 output channels,
// conv2d-1139); tf32: 64x32, 128x128 and 128x192. The tuning sets (kernels-tuning.json and
// kernels-tuning2.json, H100, dev) add fp16 256x96 (tune-conv2d-0496) and tf32 64x64, 128x32 and
// 256x64 (tune-conv2d-0426, -0428 and -0446, -0458). Library facts.
const std::vector<GemmTile> kSm90ConvTiles16Bit = {{64, 64},  {64, 128},  {128, 64}, {128, 128},
                                                   {256, 64}, {256, 128}, {128, 32}, {256, 96}};
const std::vector<GemmTile> kSm90ConvTilesTf32 = {{64, 32},   {64, 64},   {128, 32},
                                                  {128, 128}, {128, 192}, {256, 64}};
// Beside them cuDNN ships sm80 mma.sync implicit-GEMM kernels its heuristic runs on Hopper for some
// problems: sm80_xmma_fprop_implicit_gemm_<types>_nhwckrsc_nhwc_tilesize64x32x64_stage5 (conv2d-0348,
// M = 64 over K = 11,520; conv2d-1144), ..._tilesize64x64x64_stage4 (conv2d-1125) and
// ..._tilesize128x32x32_stage4 (conv2d-1124), dev and calibration profiles, f16f16 and bf16bf16 only.
// Library facts; which family runs is left to the timing, as among the sm90 tiles.
const std::vector<GemmTile> kSm80ConvTiles16Bit = {{64, 32}, {64, 64}, {128, 32}};
// The few-channel kernels are CUTLASS's fprop_optimized ones, whose tiles all span 64 or more output
// channels: cutlass_tensorop_{bf16,f16}_s16816fprop_optimized_..._256x64_32x4 (conv2d-0320, -1147;
// tune-conv2d-0473), _64x128_32x6 (conv2d-0361, -0368) and _64x64_32x10 (tune-conv2d-0492, -0499 at
// 33 and 16 output channels) in the H100 profiles of the dev and calibration splits and the tuning
// sets. Library facts.
const std::vector<GemmTile> kFewChannelTiles = {{256, 64}, {64, 128}, {64, 64}};
// Every such profile runs one wave or less (40 to 98 tiles); the multi-wave grids of the dev and
// calibration splits run sm90 kernels, even over rows those make slow (conv2d-1139: 614 tiles of
// sm90 128x32, 4.7 waves). The heuristic's boundary is taken at one wave (assumption).
constexpr double kSm80MaxWaves = 1;
// A cache line: pixel rows (C x element bytes) that are a whole number of them, and rows that are not.
constexpr double kLineBytes = 128;
// cuDNN's sm90 kernels over pixel rows that are not whole 128-byte lines run their multi-wave grids
// about twice as long as the overlapped K loop gives them (dev and calibration profiles, H100 and
// H200 run 2: conv2d-1152, 24 tf32 channels = 96 B, 128x128x32, 28 waves, 243 us measured vs about 143
// us; conv2d-1139, 136 fp16 = 272 B, 128x32x32, 4.7 waves, 71 us vs about 30 us), the excess per wave
// after the first in proportion to the A tile's bytes (about 20 bytes per cycle per SM at cuDNN's
// tiles in both), while one-wave grids over such rows (conv2d-1159, 112 B, 8 tiles) and every grid
// over whole-line rows (0322, 0357, 0360, 1130: 3 to 23 waves) match the overlapped timing. Read as
// A gathers the K loop does not hide from the next tile. The model picks larger tiles than cuDNN
// there (128x192 for 1152: fewer waves), so the per-SM rate is fit end to end on the dev split (only
// conv2d-1152 moves), H100 and H200 run 2: 8 / 11 / 15 / 20 bytes per cycle give the four
// descriptions' conv2d MAPE (cal H100, H100, cal H200 run 2, H200 run 2) 8.80/8.91/7.58/7.93,
// 8.50/8.60/7.19/7.52, 8.75/8.86/7.49/7.61, 8.92/9.03/7.69/7.81%: 11. Checked on conv2d-1139
// (calibration split, not in the fit; the model runs it on sm90 128x64): -38.0 -> -7.1% on the
// calibrated H100, -41.8 -> -6.6% on the calibrated H200 run 2. The bytes are the A bytes the tiles
// load, which no longer count a K step's zero channels (below): conv2d-1152's 24 tf32 channels fill
// 24 of each 32-channel step, so 11 x 24 / 32 = 8.25 bytes per cycle keeps its fitted penalty.
constexpr double kUnalignedRowGatherCyclesPerByte = 1.0 / 8.25;
// The sm90 kernels run on compute capability 9 and later (their sm90_ prefix; library fact).
constexpr int kSm90CcMajor = 9;
// cuDNN launches a small Memset ahead of its sm90 implicit-GEMM kernels whose grids run more than two
// waves of tiles (segment-K off): every such profile in the dev and calibration splits and the tuning
// sets shows it (conv2d-0322, -0357, -0360, -1130, -1139, -1152; tune-conv2d-0428, -0446, -0449, -0479;
// 2.9 to 28 waves), none of the grids of at most 1.5 waves (conv2d-0329, -0349, -1133, -1138;
// tune-conv2d-0426, -0434, -0456). Read as a zeroed tile counter or workspace of its multi-wave
// scheduler (assumption); the threshold is taken at two waves, where segment-K's range ends. Dev
// split, conv2d MAPE calibrated H100 / catalog H100 (median of three runs) / calibrated H200 / catalog
// H200 (run 2): 7.34/7.36/6.34/6.26% -> 7.00/7.03/6.01/6.25% (conv2d-0322 -6 -> 0%, -0360 -13 -> -8%);
// the tuning sets, calibrated H100: 12.10 -> 12.16% and 9.65 -> 9.66%.
constexpr double kSm90MemsetMinWaves = 2;

// Share of (output position, filter tap) pairs along one image side whose input position lies inside
// the image rather than in its zero padding: such taps gather nothing (predicated-off loads,
// zero-filled copies), so the A tile's L2 traffic shrinks with it (a 3x3 filter over a 7x7 map with
// padding 1: 19 of 21 pairs per side, 0.82 of the taps in both).
[[nodiscard]] double in_bounds_share(wl::Count size, wl::Count out, wl::Count taps, wl::Count stride,
                                     wl::Count pad) {
  double inside = 0;
  for (wl::Count r = 0; r < taps; ++r)
    for (wl::Count o = 0; o < out; ++o) {
      const auto x = o * stride - pad + r;
      if (x >= 0 && x < size) inside += 1;
    }
  return inside / (double(out) * double(taps));
}

// cuDNN's channel padding around a tensor-core convolution: zero a padded copy of the input (input
// channels unaligned) and of the filter (input or output channels unaligned), then copy each pixel's
// channels into it (Memset + nhwcAddPaddingKernel, twice, in the profile of a 3-channel stem
// convolution); output channels that are not whole vectors are computed padded and copied out to the
// real output by one more nhwcAddPaddingKernel (conv2d-1139, -1152, -1159: K = 33, 257).
void add_padding_kernels(const wl::Conv2dOp& c, double channels, double out_channels,
                         const device::Device& gpu, PlanOption& option) {
  const size_t launches_before = option.kernels.size();
  const double e = bytes_per_element(c.dtype);
  const double per_vector = std::max(1.0, kMemsetVectorBytes / e);
  std::vector<KernelPlan> kernels;
  auto pad = [&](const std::string& what, double pixels, double from, double to) {
    const double padded = pixels * to;
    KernelPlan zero = streaming_kernel("memset padded " + what, padded, 0, padded * e,
                                       kMemsetInstructionsPerElement, gpu, per_vector);
    zero.reads_dram = false;
    kernels.push_back(zero);
    KernelPlan copy =
        streaming_kernel("pad " + what + " channels to " + std::to_string(int(to)), pixels * from,
                         pixels * from * e, padded * e, kPadInstructionsPerElement, gpu, per_vector);
    copy.dram_read_efficiency = kPadReadEfficiency;
    copy.startup_cycles = kPadStartupCycles;
    kernels.push_back(copy);
  };
  const bool input_padded = channels != double(c.c);
  const bool output_padded = out_channels != double(c.k);
  if (input_padded) pad("input", double(c.n) * double(c.h) * double(c.w), double(c.c), channels);
  if (input_padded || output_padded)
    pad("filter", out_channels * double(c.r) * double(c.s), double(c.c), channels);
  option.kernels.insert(option.kernels.begin(), kernels.begin(), kernels.end());
  if (output_padded) {
    const double pixels = double(c.n) * double(c.p()) * double(c.q());
    KernelPlan copy = streaming_kernel(
        "copy output out of " + std::to_string(int(out_channels)) + " padded channels", pixels * double(c.k),
        pixels * out_channels * e, pixels * double(c.k) * e, kPadInstructionsPerElement, gpu, per_vector);
    copy.dram_read_efficiency = kPadReadEfficiency;
    copy.startup_cycles = kPadStartupCycles;
    option.kernels.push_back(copy);
  }
  // The host issues the padding path's launches one by one between its own calls (each a
  // cudaMemsetAsync, or device-attribute, function-attribute and occupancy queries before a launch):
  // the whole call's host time, spent between the launches.
  const double padding_launches = double(option.kernels.size() - launches_before);
  const auto& launch = gpu.launch();
  const double library_call_us = launch.host_eager_us + launch.host_library_us;
  option.host_us = library_call_us * (1 + padding_launches * kPadLaunchHostShareOfLibraryCall);
  option.host_between_launches = true;
}
}  // namespace

std::vector<PlanOption> ConvModel::plan(const wl::Op& op, const device::Device& gpu) const {
  const auto& c = std::get<wl::Conv2dOp>(op);
  const ConvChoice choice = choose_conv_algorithm(c, gpu);
  if (choice.algorithm == ConvAlgorithm::few_channel_indexed)
    return {indexed_few_channel_conv_plan(c, choice.math, gpu)};
  if (choice.algorithm == ConvAlgorithm::fma_direct) {
    PlanOption option = fma_direct_conv_plan(c, gpu);
    option.name = conv_algorithm_name(choice) + ": " + option.name;
    return {option};
  }
  if (choice.algorithm == ConvAlgorithm::simt_nchw_gemm) {
    PlanOption option = fma_nchw_conv_plan(c, gpu);
    option.name = conv_algorithm_name(choice) + ": " + option.name;
    return {option};
  }
  if (choice.algorithm == ConvAlgorithm::gemm) {
    // A 1x1 stride-1 convolution is the GEMM out[N*H*W, K] = in[N*H*W, C] x filter[K, C]^T over the
    // tensors as they are: no channel padding, the filter read transposed. Channels that are not whole
    // 16-byte vectors send it to the library's narrow-load CUTLASS GEMMs (gemm_alignment.h): the
    // profiles show one kernel, cutlass_80_wmma_tensorop_bf16_s161616gemm_bf16_32x32_64x1_tn_align2 at
    // C = 50, K = 100 (tune-conv2d-0457), cutlass_75_wmma_tensorop_f16_..._tn_align1 at C = 3, K = 257
    // (-0461), cutlass_75_tensorop_bf16_s1688gemm_bf16_64x64_tn_align1 at C = 129, K = 257 (-0464) and
    // cutlass_80_tensorop_bf16_s16816gemm_bf16_128x256_32x3_tn_align2 at C = K = 100 (-0456), no
    // padding kernels (kernels-tuning.json, H100).
    wl::GemmOp gemm;
    gemm.m = c.n * c.p() * c.q();
    gemm.n = c.k;
    gemm.k = c.c;
    gemm.dtype = choice.math;
    gemm.out_dtype = choice.math;
    gemm.transpose_b = true;
    auto options = GemmModel().plan(gemm, gpu);
    for (auto& option : options) option.name = conv_algorithm_name(choice) + ": " + option.name;
    return options;
  }
  const double e = bytes_per_element(choice.math);
  const double n = double(c.n), p = double(c.p()), q = double(c.q());
  const double channels = choice.channels;
  GemmShape g;
  g.m = n * p * q;
  // Output channels are computed in whole 16-byte vectors on the tensor-core implicit-GEMM paths.
  const double out_channels = choice.tensor && choice.algorithm != ConvAlgorithm::gemm
                                  ? std::ceil(double(c.k) / choice.channel_align) * choice.channel_align
                                  : double(c.k);
  g.n = out_channels;
  g.in = choice.math;
  g.out = choice.math;
  g.warp_mma = choice.algorithm == ConvAlgorithm::few_channel_gemm;
  if (choice.algorithm == ConvAlgorithm::few_channel_gemm && gpu.cc_major() >= kSm90CcMajor)
    g.tiles = kFewChannelTiles;
  // Share of the A tile's (row, tap) gathers that load: taps over the zero padding load nothing.
  double taps_loaded = 1;
  if (choice.algorithm == ConvAlgorithm::gemm) {
    g.k = channels;
  } else {
    g.k = channels * double(c.r) * double(c.s);
    g.cluster_multicast = false;
    // No convolution profile shows a split-K reduce kernel after a cuDNN kernel (66 tensor-core conv
    // kernels in the dev and calibration splits, H100 and H200; cublasLt's splitKreduce follows only
    // the cuBLAS GEMM of a 1x1 convolution, conv2d-1111): on Hopper a long K runs segment-K in the
    // sm90 kernel or a small sm80 tile instead (library fact; older GPUs keep the split-K options).
    g.split_k = gpu.cc_major() < kSm90CcMajor;
    // Input rows (and columns) the taps touch: a filter narrower than its stride skips the rest.
    const double rows_read = c.r < c.stride ? std::min(double(c.h), p * double(c.r)) : double(c.h);
    // DRAM moves whole sectors: a strided filter that skips input pixels (a 1x1 stride-2 shortcut)
    // reads only the pixels its taps touch once a pixel's channels fill a sector; narrower pixels
    // share sectors with the skipped ones.
    const double cols_read = c.s < c.stride && channels * e >= device::kDramSectorBytes
                                 ? std::min(double(c.w), q * double(c.s))
                                 : double(c.w);
    g.a_unique_bytes = n * rows_read * cols_read * channels * e;
    // Taps over the zero padding load nothing: the tensor-core kernels' gathers are predicated (sm80
    // cp.async zero-fill, sm90 copies). Evidence, dev split: conv2d-1133 (7x7 maps, 3x3 filter,
    // padding 1) needs 11 TB/s of L2 for its A tiles counted whole, above the L2's nominal 8.4 TB/s.
    if (choice.tensor)
      taps_loaded = in_bounds_share(c.h, c.p(), c.r, c.stride, c.pad) *
                    in_bounds_share(c.w, c.q(), c.s, c.stride, c.pad);
    // The fused Winograd kernel gathers no im2col operand (it transforms whole input tiles), so the
    // FMA path's address-generation share does not apply to it.
    const bool simt_gather = !choice.tensor && choice.algorithm != ConvAlgorithm::winograd;
    g.efficiency = simt_gather ? kSimtImplicitGemmEfficiency : kImplicitGemmEfficiency;
    if (choice.algorithm == ConvAlgorithm::implicit_precomp_gemm && gpu.cc_major() >= kSm90CcMajor) {
      g.tiles = choice.math == DataType::tf32 ? kSm90ConvTilesTf32 : kSm90ConvTiles16Bit;
      // The filter tile reaches both CTAs of a 2-CTA cluster along M in one multicast. The kernel
      // names give no cluster shape; evidence from the dev split: the 256x64 kernel of conv2d-0357 (a
      // single column of tiles, 3,025 of them, 250 us on the H100 and 222 us on the H200) would need
      // 1.22x the calibrated L2 rate on both GPUs if every CTA loaded its own filter tile, 1.09x with
      // it multicast; the 128x64 kernel of conv2d-1133 (H100) 1.53x and 1.27x. Adopted on the dev split
      // (conv2d 13.4 -> 12.6% on the calibrated H100).
      g.cluster_multicast_b = true;
      g.segment_k = true;
      g.efficiency = kSm90ImplicitGemmEfficiency;
      if (std::fmod(channels * e, kLineBytes) != 0)
        g.a_serial_cycles_per_byte = kUnalignedRowGatherCyclesPerByte;
    }
    // The K loop steps through taps; each step is a full K tile (tensor cores) or channel vector
    // (FMA) wide even when a tap has fewer channels.
    const double tk = !choice.tensor ? kSimtChannelVector
                      : g.warp_mma   ? warp_mma_k_step(g.in)
                                     : gemm_k_step(g.in);
    const double steps = double(c.r) * double(c.s) * std::ceil(channels / tk);
    g.k_padding_factor = steps * tk / g.k;
    if (choice.algorithm == ConvAlgorithm::winograd) g.k_padding_factor /= kWinogradMultiplyReduction;
    // The channels a K step runs beyond the tap's own are zero-filled in shared memory, not loaded
    // (cp.async zero-fill, bulk-copy bounds): the A tile's L2 traffic counts the tap's channels only.
    // Evidence, dev split: the 3-channel stem (conv2d-0320, 8 padded channels in each 32-channel
    // step of CUTLASS's 256x64 fprop kernel) runs 195 us on the H100 and 198 us on the H200 (run 2),
    // the same time where the two L2 rates differ by 13%: it is not bound by the L2, as counting
    // whole steps made it (219 and 194 us of L2 time); the tuning sets' stem (tune-conv2d-0473)
    // agrees: +15.6 -> +1.4% on the calibrated H100.
    if (choice.tensor) g.a_loaded_share = taps_loaded / g.k_padding_factor;
  }
  auto options = gemm_options(g, gpu);
  if (choice.algorithm == ConvAlgorithm::implicit_precomp_gemm && gpu.cc_major() >= kSm90CcMajor &&
      (choice.math == DataType::bf16 || choice.math == DataType::fp16)) {
    // The sm80 mma.sync kernels: K steps of one 64-byte row, no clusters, no segment-K, the
    // implicit-GEMM share of the mma.sync rate.
    GemmShape sm80 = g;
    sm80.warp_mma = true;
    sm80.tiles = kSm80ConvTiles16Bit;
    sm80.cluster_multicast_b = false;
    sm80.segment_k = false;
    sm80.efficiency = kImplicitGemmEfficiency;
    sm80.a_serial_cycles_per_byte = 0;
    const double tk = warp_mma_k_step(g.in);
    sm80.k_padding_factor = double(c.r) * double(c.s) * std::ceil(channels / tk) * tk / g.k;
    sm80.a_loaded_share = taps_loaded / sm80.k_padding_factor;
    for (auto& option : gemm_options(sm80, gpu))
      if (option.kernels.back().blocks <= kSm80MaxWaves * gpu.sms()) options.push_back(std::move(option));
  }
  const std::string family = conv_algorithm_name(choice) + ": ";
  const bool sm90_kernels =
      choice.algorithm == ConvAlgorithm::implicit_precomp_gemm && gpu.cc_major() >= kSm90CcMajor;
  for (auto& option : options) {
    // cuDNN's sm90 kernels fetch their operand tiles with TMA bulk copies straight into shared memory
    // (sim/kernel_timer.cpp times them); not the sm80 mma.sync kernels' cp.async loads beside them.
    if (sm90_kernels)
      for (auto& k : option.kernels)
        if (k.pipe == Pipe::tensor) k.bulk_async_loads = true;
    option.name = family + option.name;
    if (sm90_kernels) {
      const auto main = std::find_if(option.kernels.begin(), option.kernels.end(),
                                     [](const KernelPlan& k) { return k.pipe == Pipe::tensor; });
      if (main != option.kernels.end() && main->blocks > kSm90MemsetMinWaves * gpu.sms() &&
          (main == option.kernels.begin() || std::prev(main)->pipe != Pipe::none))
        option.kernels.insert(main, memset_kernel(gpu));
    }
    // cuDNN's own implicit-GEMM kernels (not the cuBLAS GEMM of a 1x1 convolution) pay the
    // prologue once; the memset and split-K reduce kernels beside them do not.
    if (choice.tensor && choice.algorithm != ConvAlgorithm::gemm)
      for (auto& k : option.kernels)
        if (k.pipe != Pipe::none) k.startup_cycles += kCudnnConvPrologueCycles;
    if (choice.tensor && (channels != double(c.c) || out_channels != double(c.k)))
      add_padding_kernels(c, channels, out_channels, gpu, option);
  }
  return options;
}

}  // namespace gpucast::models
