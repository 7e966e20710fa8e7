#include "models/attention_model.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "common/errors.h"
#include "models/attention_backward.h"
#include "models/attention_block_chain.h"
#include "models/attention_flash2_splits.h"
#include "models/attention_head_tile.h"
#include "models/attention_mma_sync_share.h"
#include "models/attention_single_block.h"
#include "models/block_dispatch.h"
#include "models/helper_kernels.h"
#include "models/l2_writeback.h"
#include "models/launch_bounds.h"

namespace gpucast::models {
namespace {

// Query rows per block (two consumer warpgroups of 64 rows share each K/V tile) and key/value
// rows per step of the prefill kernel.
constexpr double kBlockQ = 128;
constexpr double kBlockKV = 128;
// Query rows below which the library switches to its split-KV decode kernel.
constexpr double kDecodeRows = 16;
// cuDNN's decode kernel (sdpa_sm80_flash_fprop_wmma_..._16x128x128 with lean_reduction_kernel) runs
// for one query row; 4 rows run the sm90 prefill kernel (H100 and H200 profiles: every seq_q = 1 case
// and every seq_q = 4 case of validation/<gpu>/kernels.json, dev and calibration; library fact).
constexpr double kCudnnDecodeMaxRows = 1;
// Softmax between the two matrix products: scale, max, subtract, convert, sum per score (lanes).
constexpr double kSoftmaxInstructionsPerScore = 8;
// Share of the softmax work hidden under the tensor-core products: two consumer warpgroups
// ping-pong (one runs softmax while the other multiplies). 0.85 reproduces head_dim 128 and 64
// alike on the dev half of the H200 run.
constexpr double kSoftmaxOverlap = 0.85;
// Threads and registers: Hopper kernels run a producer and two consumer warpgroups at 168
// registers (FlashAttention-3); FlashAttention-2 kernels run 4 warps at up to 255 registers.
constexpr double kHopperThreads = 384;
constexpr double kFa2Threads = 128;
constexpr int kHopperRegisters = 168;
constexpr int kFa2Registers = 255;
// Share of the softmax hidden under the products in FlashAttention-2 (one warp does both).
constexpr double kFa2Overlap = 0.5;
// Serial per-block cycles: the prologue (descriptors, barriers, the Q tile and the first K/V stage
// waited for from a flushed L2), the final rescale and the O store (prefill). Dev split of the broad
// set, H100 and H200: small prefill grids (one wave of blocks of one to four KV steps) run about
// 3.5 us longer than their products and softmax, on both GPUs.
constexpr double kPrefillFixedCycles = 7000;
// cuDNN's and FlashAttention-3's warpgroup prefill kernels: a start-up once per kernel (tensor-map
// descriptors fetched, barriers and the cluster set up, the last blocks' epilogue drained) besides the
// serial part of each block. Dev split, H100 and H200 (the cuDNN forward kernels alone): one wave of
// one-step blocks takes 6.5-6.7 us (b8 h16 100 tokens, b1 h16 256), two waves 7.0 us (b16 h16 128);
// with the per-block 7,000 cycles alone one-wave grids came out 30-35% short. Fit over the dev
// attention cases of both GPUs together with the causal schedule below (per-block 3,000-7,000 and
// start-up 0-6,000 cycles): dev attention MAPE 9.3% -> 8.0% (H100), 13.4% -> 12.1% (H200).
// Refit with the first loads queued behind the wave's (kWarpgroupPrefillFirstStages below): 4,000 and
// 6,000 -> 2,500 and 2,500.
constexpr double kWarpgroupPrefillStartupCycles = 2500;
constexpr double kWarpgroupPrefillFixedCycles = 2500;
// The first step of a warpgroup prefill block waits for its Q tile and first K/V stage, issued by
// the producer (TMA) for every block of the wave at once, so that round trip lasts the whole wave's
// bytes at the DRAM rate, not the bare latency (KernelPlan::bytes_in_flight, sim/kernel_timer.cpp).
// Dev and tuning sets (cuDNN sm90 flash_fprop, H100 and H200): one-wave one-step grids take 3.9-4.3
// us with 16 blocks at head_dim 64 (b1 h16 100-128 tokens) and 6.5 us with 128 (b8 h16 100 d96), which
// per-block serial cycles alone (4,000 start-up, 6,000 per block) gave both as about 6.5 us (+23% to
// +43% for the small ones). Fit with the two constants above (start-up 1,500-5,000 and per-block
// 1,000-3,500 cycles scanned; one stage or both in flight, one better): dev attention MAPE 4.90% ->
// 4.47% (H100) and 8.05% -> 7.93% (H200, calibrated), tuning 6.87% -> 5.76%, tuning2 6.23% -> 5.41%.
constexpr double kWarpgroupPrefillFirstStages = 1;
// Decode kernels: 128 threads at 128 registers; the grid is split to fill the SMs this many times.
constexpr int kDecodeThreads = 128;
constexpr int kDecodeRegisters = 128;
constexpr double kDecodeWavesTarget = 2;
// cuDNN's decode kernel splits the context only beyond this many 128-key chunks (512 keys: no
// lean_reduction_kernel in the profiles at 512 keys, one at 1,000 and more; dev and calibration).
constexpr double kLeanMinChunks = 4;
// cuDNN's lean_reduction_kernel, which combines the decode kernel's partials, takes about 2 us
// whatever it moves: the profiles (dev: b1 h32/8 1000 keys, b1 h32 32K, b8 h32/8 8K and 32K, H100 and
// H200) time it at 1.7-2.4 us with 2 to 17 partials a row and 0.03-1 MB of partials, where a
// streaming kernel of those bytes takes under 1 us. Its serial part, fitted to the mean of those
// eight dev profiles (2.12 us; the streaming kernel's own start, fill and round trip give 0.8 us):
// library fact, the mechanism behind it (the reduction's inner loop and its bookkeeping) unresolved.
constexpr double kLeanReductionFixedCycles = 3400;
// The memory-efficient kernel's tiles (fmha_cutlassF_*_aligned_64x64_rf_sm80 for head_dim up to 64,
// ..._64x128_rf_sm80 above, in the H100 and H200 profiles; library fact): 64 queries per block, 64 or
// 128 keys per step. One warp does the products and the softmax in turn: nothing hidden (dev).
constexpr double kEfficientBlock = 64;
constexpr double kEfficientLargeBlockKV = 128;
constexpr double kEfficientSmallHeadDim = 64;
constexpr double kEfficientOverlap = 0;
// Share of the mma.sync rate its products reach: 4 warps per block, the scores kept in registers
// ("rf"), one K/V stage (dev: attention-1018, b1 h32 8192 d128, 6.2 ms on the H100).
constexpr double kEfficientForwardEfficiency = 0.375;
// Each step waits for its K tile, then its V tile (one stage, nothing prefetched), each load behind
// a barrier: dependent round trips per step. Dev: the small memory-efficient cases (2 to 8 steps per
// block) grow by about 1.7 us a step on the H100, four loaded round trips; two left them 25-50% fast.
// Refit with the block's own products on its chain (models/attention_block_chain.h), dev, H100 and
// H200: 3 or 5 rounds move the four dev cases 5-15% either way; 4 stays.
constexpr double kEfficientRoundsPerStep = 4;
// The memory-efficient kernel's warps and occupancy (PyTorch's mem_eff_attention/kernel_forward.h;
// library fact): kNumWarpsPerBlock = queries x keys per block / (32 x 32) (4 warps at 64 x 64, 8 at
// 64 x 128), and __launch_bounds__ asks for getWarpsPerSmFw() = 16 warps per SM (sm80 and later, half
// types; 12 otherwise) in kMinBlocksPerSm blocks, which caps the registers at the 64K register file
// over those warps' threads.
constexpr double kEfficientWarpTile = 32 * 32;
constexpr double kEfficientWarpsPerSm = 16;
constexpr double kEfficientWarpsPerSmOther = 12;
constexpr int kEfficientWarpsPerSmMinCc = 8;
// Causal warp-level kernels (FlashAttention-2, memory-efficient) mask the diagonal tiles element by
// element: a share of every step (warpgroup kernels: kCausalDiagonalMaskSteps below).
constexpr double kCausalEfficiency = 0.9;
// The warpgroup forward kernels' products run at a share of the datasheet tensor peak, the same on
// the H100 and the H200, not at the calibrated cuBLASLt rate: that rate is timed back to back at the
// power limiter's full-duty clock and calibrates lower on the H200 (bf16 0.708 against 0.744), while
// the same cuDNN sm90 flash_fprop kernels take the same time on both GPUs (dev: the compute-bound
// cases within 3%), their softmax between the products keeping the matrix duty and the power lower
// (as the backward's kCudnnBackwardPeakShare). Fit on the dev split's cuDNN forward cases, H100 and
// H200 together, with the causal mask below (shares 0.70-0.78 scanned, 0.72 best with the mask and
// without): dev attention MAPE 6.5% -> 6.2% (H100), 11.5% -> 10.1% (H200 calibrated).
constexpr double kWarpgroupForwardPeakShare = 0.72;
// A causal warpgroup block computes its diagonal tile whole and masks it element by element, once per
// block, not a share of every step: the mask's lane instructions per score of that tile (each
// score's row and column from the fragment layout, the compare and the select) and the products'
// share its exposed mask costs, in KV steps. Dev: with kCausalEfficiency (0.9) on every step the long
// causal head_dim 128 cases came out 4-10% long and the head_dim 64 ones 4-11% short (softmax-bound
// there, so the mask's instructions show); the trace's causal cuDNN forwards (b8 h12 1024 d64) 15%
// short. Fit on the dev split, H100 and H200 together, with kWarpgroupForwardPeakShare (0-1 steps and
// 0-48 instructions scanned): dev attention MAPE 6.2% -> 5.8% (H100), 10.1% -> 9.4% (H200 calibrated).
constexpr double kCausalDiagonalMaskSteps = 0.3;
constexpr double kCausalMaskInstructionsPerScore = 16;
// Keys that end inside a KV tile: the block's last tile is masked the same way (FlashAttention-3's
// seqlen mask on the partial n_block; cuDNN's sm90 flash_fprop kernel, the same kernel whatever the
// length in the profiles): one tile per block at the causal diagonal's cost, no constant of its own.
// Dev and tuning sets (H100): non-causal cuDNN forwards with keys not a multiple of 128 (1,000, 333,
// 3,001, 5,000) came out 12% short on average (bias -6%), the multiples 3% (bias -2%); with the mask
// 9% (bias -4%). Attention MAPE: tuning 7.63% -> 7.24%, tuning2 6.85% -> 6.54%, dev unchanged.
constexpr double kPaddedKeysMaskedTiles = 1;
// Compute capabilities with warpgroup (wgmma / tcgen05) tensor-core instructions: datacenter
// Hopper (9.x) and Blackwell (10.x); consumer Blackwell (12.x) runs warp-level mma kernels (CUDA
// programming guide). FlashAttention-2 needs compute capability 8.0 (its README).
constexpr int kHopperCcMajor = 9;
constexpr int kBlackwellDatacenterCcMajor = 10;
constexpr int kFa2MinCcMajor = 8;
// Hopper kernels double-buffer K and V; the KV tile shrinks by halves down to this many rows
// when a large head does not fit (FlashAttention-3 runs head_dim 256 at 128 x 80; assumption).
constexpr double kHopperKvStages = 2;
constexpr double kHopperMinBlockKV = 16;
// The memory-efficient kernel's KV tile shrinks by halves down to this many rows (assumption).
constexpr double kEfficientMinBlockKV = 16;
// FlashAttention-2 forward tiles for sm8x (flash_fwd_launch_template.h: 128 x 128 for head_dim
// up to 64, 128 x 64 above), one K/V stage; halved down to these floors when shared memory is
// short (assumption).
constexpr double kFa2BlockQ = 128;
constexpr double kFa2SmallHeadBlockKV = 128;
constexpr double kFa2BlockKV = 64;
constexpr double kFa2SmallHeadDim = 64;
constexpr double kFa2KvStages = 1;
constexpr double kFa2MinBlockKV = 32;
constexpr double kFa2MinBlockQ = 64;
// Serial DRAM round trips per block: Q, then the first K/V stage (prefill and decode alike).
constexpr double kAttentionDramRounds = 2;
// Decode kernels double-buffer K and V where two stages fit.
constexpr double kDecodeKvStages = 2;
// Split-KV partials: each row keeps its d outputs plus the running max and sum, in fp32
// (FlashAttention's split-KV out_accum / softmax_lse; library fact).
constexpr double kPartialStatsPerRow = 2;
constexpr double kPartialBytes = 4;
// Lane instructions per partial element of the split-KV combine kernel (load, rescale by the
// log-sum-exp, add, store; assumption).
constexpr double kCombineInstructionsPerPartial = 6;
// Lane instructions per score of the math backend's softmax backward: two loads, the product, the
// row sum's share, the subtract, the multiply and the store (assumption).
constexpr double kSoftmaxBackwardInstructionsPerElement = 8;
// The math backend's backward is the autograd engine walking the forward's graph on the host, one
// node per recorded aten op (PyTorch's _scaled_dot_product_attention_math, attention.cpp, and
// at::matmul's batched path, LinearAlgebra.cpp _matmul_impl; library facts): each matmul records an
// expand and a reshape of both operands, the bmm and an _unsafe_view (six nodes, the bmm's launching
// its two products); q's and k's scale, k's transpose and _safe_softmax one each; the causal mask's
// add one; with half-precision inputs the three casts up and the output's cast back.
constexpr double kMathMatmulAutogradNodes = 6;
constexpr double kMathOtherAutogradNodes = 4;
constexpr double kMathCausalAutogradNodes = 1;
constexpr double kMathUpcastAutogradNodes = 4;
// The engine's host time per node over an eager op's dispatch and launch (launch.host_eager_us):
// 12.0 us per node (framework.autograd_node_us, its launch excluded) against 5.81 us per eager
// torch.add (a_add_out), the host probe of the 2x H200 box (hardware/catalog/hosts/h100-box.toml).
// Dev: the math backward of b1 h16 512 tokens d64 (12 kernels, 130 us of them) measured 607 us
// (432 us in the first run) on the H100 and 479 us on the H200: host bound.
constexpr double kAutogradNodeOverEagerOp = 12.0 / 5.81;
// torch.autograd.grad's own host time per call, in eager ops (the graph task's set-up, the hand-off
// to the engine's device thread and the caller woken at the end). Fit on the dev and calibration
// splits: the layernorm_bwd cases with one backward node measured through autograd
// (autograd_measured_us) against their kernels and do_bench's flush, less one node and its launches:
// median 14 eager ops on the H100 box, 26 on the H200 box, 21 over both.
constexpr double kAutogradCallOverEagerOp = 21;
// The math forward's host ops beside its modelled kernels (PyTorch's _scaled_dot_product_attention_math
// as the H100 and H200 profiles show it, dev and calibration; library facts): the causal mask's
// ones, tril, two fills and a where; _safe_softmax's zero fill; at::matmul's two expands, two reshapes
// and _unsafe_view per product; k's transpose.
constexpr double kMathCausalMaskOps = 5;
constexpr double kMathSafeSoftmaxFillOps = 1;
constexpr double kMathMatmulViewOps = 5;
constexpr double kMathTransposeOps = 1;
// Library calls of the math forward, each a library op's host time over its eager launch
// (launch.host_library_us, the host probe's matmul and SDPA calls less torch.add's): the SDPA entry
// (its backend selection) and at::matmul's two bmm calls into cuBLAS (library facts, as above). Dev:
// the causal bf16 math forward of b1 h16 512 tokens d64 is host bound (127 us of kernels) and
// measured 351 us (H100) and 460 us (H200), 594 and 326 us in the second runs
// (kernels-run2.json): -52% and -62% with eager ops alone, -44% and -57% with these calls. The
// backward's four bmm calls were tried the same way and not adopted (its engine's per-call host
// time, kAutogradCallOverEagerOp, was fit without them: H100 better, H200 worse).
constexpr double kMathForwardLibraryCalls = 3;

// Average number of KV steps a query block executes; causal blocks stop at the diagonal
// (aligned to the end of the keys, as FlashAttention does when seq_q < seq_kv).
double kv_steps_per_block(const wl::AttentionOp& a, double block_q, double block_kv) {
  const double q_blocks = std::ceil(double(a.seq_q) / block_q);
  const double full = std::ceil(double(a.seq_kv) / block_kv);
  if (!a.causal) return full;
  const double offset = double(a.seq_kv) - double(a.seq_q);
  double total = 0;
  for (double i = 0; i < q_blocks; ++i) {
    const double last_key = std::min(double(a.seq_kv), offset + (i + 1) * block_q);
    total += std::max(1.0, std::ceil(last_key / block_kv));
  }
  return total / q_blocks;
}

// The kernel class a GPU runs: Hopper's warpgroup (wgmma) kernels with ping-pong consumers, or the
// FlashAttention-2-class warp-level (mma.sync) kernels of earlier GPUs, with tiles sized to the
// GPU's shared memory.
struct FlashTiles {
  double block_q, block_kv, threads, overlap;
  Pipe pipe;
};

// The kernel family PyTorch's SDPA runs (torch.nn.attention.SDPBackend). `auto` follows PyTorch's
// dispatch: cuDNN attention (a FlashAttention-3-class warpgroup kernel) on Hopper and later,
// FlashAttention-2 on Ampere and Ada, and the memory-efficient (xFormers/CUTLASS) kernel before
// Ampere, where FlashAttention-2 does not run.
// Warpgroup (wgmma / tcgen05) tensor-core instructions exist on datacenter Hopper (9.x) and
// Blackwell (10.x); consumer Blackwell (12.x) runs warp-level mma kernels.
bool has_warpgroup_mma(const device::Device& gpu) {
  return gpu.cc_major() == kHopperCcMajor || gpu.cc_major() == kBlackwellDatacenterCcMajor;
}

// PyTorch's ROCm builds run flash attention on AMD's matrix-core GPUs (AOTriton or Composable
// Kernel: gfx90a, gfx942, gfx950), which the "gfxNNN" architecture names do not express as a CUDA
// compute capability: a FlashAttention-2-class kernel with its split-KV decode, as serving engines
// run on them too (library fact: PyTorch's sdp_utils for ROCm, vLLM's ROCm attention backends).
bool rocm_flash_attention(const device::Device& gpu) {
  return gpu.vendor() == "AMD";
}

wl::AttentionBackend resolve_backend(const wl::AttentionOp& a, const device::Device& gpu) {
  if (a.backend != wl::AttentionBackend::automatic) return a.backend;
  if (has_warpgroup_mma(gpu)) return wl::AttentionBackend::cudnn;
  if (gpu.cc_major() >= kFa2MinCcMajor || rocm_flash_attention(gpu)) return wl::AttentionBackend::flash2;
  return wl::AttentionBackend::efficient;
}

// Warpgroup kernels (cuDNN, FlashAttention-3) need Hopper's wgmma; elsewhere cuDNN runs its
// FlashAttention-2-class kernels. FlashAttention-2 itself needs compute capability 8.0.
bool warpgroup_kernel(wl::AttentionBackend b, const device::Device& gpu) {
  if (b == wl::AttentionBackend::flash3 && !has_warpgroup_mma(gpu))
    throw UnsupportedError(
        "FlashAttention-3 needs warpgroup tensor-core instructions (Hopper or datacenter Blackwell); " +
        gpu.id() + " is " + std::to_string(gpu.cc_major()) + ".x: use backend = \"flash2\" or \"auto\"");
  if (b == wl::AttentionBackend::flash2 && gpu.cc_major() < kFa2MinCcMajor && !rocm_flash_attention(gpu))
    throw UnsupportedError("PyTorch's flash attention needs compute capability 8.0 or newer; " + gpu.id() +
                           " would run backend = \"efficient\" (what \"auto\" picks there)");
  return (b == wl::AttentionBackend::cudnn || b == wl::AttentionBackend::flash3) && has_warpgroup_mma(gpu);
}

FlashTiles tiles_for(const device::Device& gpu, wl::AttentionBackend backend, double d, double e) {
  const double smem = gpu.shared_bytes_per_block();
  if (warpgroup_kernel(backend, gpu)) {
    // Large heads shrink the KV tile until the Q tile and two K/V stages fit (FlashAttention-3 runs
    // head_dim 256 with 128 x 80 tiles; halving to 64 stands in for it).
    double block_kv = kBlockKV;
    while ((kBlockQ * d + kHopperKvStages * 2 * block_kv * d) * e > smem && block_kv > kHopperMinBlockKV)
      block_kv /= 2;
    return {kBlockQ, block_kv, kHopperThreads, kSoftmaxOverlap, Pipe::tensor};
  }
  if (backend == wl::AttentionBackend::efficient) {
    // The memory-efficient kernel: 64-query tiles, 4 warps, K/V tiles loaded without double
    // buffering (xFormers' CUTLASS fMHA for sm80: kQueriesPerBlock 64, kKeysPerBlock 64 or 128).
    double block_kv = d <= kEfficientSmallHeadDim ? kEfficientBlock : kEfficientLargeBlockKV;
    while ((kEfficientBlock * d + 2 * block_kv * d) * e > smem && block_kv > kEfficientMinBlockKV)
      block_kv /= 2;
    return {kEfficientBlock, block_kv, kFa2Threads, kEfficientOverlap, Pipe::mma_sync};
  }
  // FlashAttention-2: 4 warps, Q tile plus one K and one V tile; halve the KV tile until it fits.
  double block_q = kFa2BlockQ, block_kv = d <= kFa2SmallHeadDim ? kFa2SmallHeadBlockKV : kFa2BlockKV;
  while ((block_q * d + 2 * block_kv * d) * e > smem && block_kv > kFa2MinBlockKV) block_kv /= 2;
  while ((block_q * d + 2 * block_kv * d) * e > smem && block_q > kFa2MinBlockQ) block_q /= 2;
  return {block_q, block_kv, kFa2Threads, kFa2Overlap, Pipe::mma_sync};
}

// Warpgroup kernels schedule a causal grid's query blocks longest first (FlashAttention-3's tile
// scheduler walks the query blocks of a causal head in reverse; cuDNN alike, dev: the causal cuDNN
// forwards of 4 to 16 waves came out 7-22% long with the ratio rule, launch order shortest first fit
// worse): each block to the first free slot in that order (models/block_dispatch.h). Dev attention MAPE
// with the start-up above: H100 8.8% -> 8.0%, H200 13.35% -> 12.1%.
double warpgroup_causal_dispatch_waves(const wl::AttentionOp& a, double q_blocks, double block_q,
                                       double block_kv, double bh, const KernelPlan& k,
                                       const device::Device& gpu) {
  const double slots = double(gpu.blocks_per_sm(k.resources(), k.name)) * gpu.sms();
  if (!(slots >= 1) || q_blocks * bh > kMaxScheduledBlocks) return 0;  // the timer's own rule
  const double offset = double(a.seq_kv) - double(a.seq_q);
  std::vector<double> head;
  head.reserve(static_cast<std::size_t>(q_blocks));
  for (double i = q_blocks - 1; i >= 0; --i) {  // the last query block (every key) first
    const double last_key = std::min(double(a.seq_kv), offset + (i + 1) * block_q);
    head.push_back(std::max(1.0, std::ceil(last_key / block_kv)));
  }
  return dispatch_waves_repeated(head, bh, slots);
}

PlanOption prefill(const wl::AttentionOp& a, const device::Device& gpu) {
  const double e = bytes_per_element(a.dtype);
  const double head_dim = static_cast<double>(a.head_dim);
  const double bh = double(a.batch) * double(a.heads);
  const wl::AttentionBackend backend = resolve_backend(a, gpu);
  const bool efficient = backend == wl::AttentionBackend::efficient;
  // cuDNN computes on its head-dimension tile (models/attention_head_tile.h): tiles, shared memory and
  // products at the padded width; the tensors it reads and writes keep their own.
  const bool cudnn_tile = backend == wl::AttentionBackend::cudnn && has_warpgroup_mma(gpu);
  const double d = cudnn_tile ? cudnn_head_dim_tile(head_dim) : head_dim;
  FlashTiles tiles = tiles_for(gpu, backend, d, e);
  // FlashAttention-2 splits the keys of a grid too small for the GPU (models/attention_flash2_splits.h):
  // 64-row query tiles, each split a block, the partial outputs combined by a second kernel.
  int splits = 1;
  if (backend == wl::AttentionBackend::flash2) {
    const double split_kv = flash2_split_block_kv(d);
    splits = flash2_num_splits(bh * std::ceil(double(a.seq_q) / kFlash2SplitBlockQ), gpu.sms(),
                               std::ceil(double(a.seq_kv) / split_kv));
    if (splits > 1) {
      tiles.block_q = kFlash2SplitBlockQ;
      tiles.block_kv = split_kv;
      while ((tiles.block_q * d + 2 * tiles.block_kv * d) * e > gpu.shared_bytes_per_block() &&
             tiles.block_kv > kFa2MinBlockKV)
        tiles.block_kv /= 2;
    }
  }
  const double block_q = tiles.block_q, block_kv = tiles.block_kv;
  const double q_blocks = std::ceil(double(a.seq_q) / block_q);
  // Each split walks its share of the key blocks.
  const double walked = kv_steps_per_block(a, block_q, block_kv);
  const double steps = splits > 1 ? std::ceil(walked / splits) : walked;
  KernelPlan k;
  // Causal query blocks stop at the diagonal: the last ones do every KV step.
  k.longest_block_ratio = std::max(1.0, std::ceil(std::ceil(double(a.seq_kv) / block_kv) / splits) / steps);
  k.name = std::string(splits > 1 ? "flash attention split-KV fwd " : "flash attention fwd ") +
           std::to_string(int(block_q)) + "x" + std::to_string(int(block_kv)) + (a.causal ? " causal" : "") +
           (splits > 1 ? ", " + std::to_string(splits) + " KV splits" : "");
  k.blocks = q_blocks * bh * splits;
  k.threads = static_cast<int>(tiles.threads);
  k.registers = tiles.pipe == Pipe::tensor ? kHopperRegisters : kFa2Registers;
  const double stages = tiles.pipe == Pipe::tensor ? kHopperKvStages : kFa2KvStages;
  k.shared_bytes = (block_q * d + stages * 2 * block_kv * d) * e;  // Q tile, K and V stages
  k.pipe = tiles.pipe;
  k.dtype = a.dtype;
  if (a.causal && splits == 1 && tiles.pipe == Pipe::tensor)
    k.dispatch_waves = warpgroup_causal_dispatch_waves(a, q_blocks, block_q, block_kv, bh, k, gpu);
  const double scores = block_q * block_kv * steps;
  k.pipe_flops = 4 * d * scores;
  // The diagonal step of a causal block computes a full tile and masks half of it.
  k.pipe_efficiency = (a.causal ? kCausalEfficiency : 1.0) * (efficient ? kEfficientForwardEfficiency : 1.0);
  // A warpgroup block masks one tile element by element: a causal block its diagonal tile, any other
  // block its last key tile where the keys end inside it (kPaddedKeysMaskedTiles).
  const bool padded_keys = std::fmod(double(a.seq_kv), block_kv) != 0;
  const double masked_tiles = a.causal ? 1.0 : (padded_keys ? kPaddedKeysMaskedTiles : 0.0);
  if (tiles.pipe == Pipe::tensor) {
    // Warpgroup kernels: a share of the datasheet peak; causal blocks pay their diagonal tile's mask.
    const double mask = 1.0 / (1.0 + masked_tiles * kCausalDiagonalMaskSteps / steps);
    k.pipe_efficiency = mask * kWarpgroupForwardPeakShare * gpu.tensor_peak_per_sm(a.dtype) /
                        gpu.pipe_rate(Pipe::tensor, a.dtype);
  }
  // Hopper's mma.sync kernels: a share of the datasheet peak too (models/attention_mma_sync_share.h).
  if (tiles.pipe == Pipe::mma_sync) k.pipe_efficiency *= hopper_mma_sync_rate_factor(gpu, a.dtype);
  k.simt_instructions = kSoftmaxInstructionsPerScore * scores;
  // A warpgroup block's masked tile (kCausalMaskInstructionsPerScore).
  if (tiles.pipe == Pipe::tensor)
    k.simt_instructions += masked_tiles * kCausalMaskInstructionsPerScore * block_q * block_kv;
  k.sfu_ops = scores;
  k.overlap = tiles.overlap;
  // DRAM: Q, K, V and O once (the K/V of one head is shared by its query blocks through L2).
  const double q_bytes = bh * double(a.seq_q) * head_dim * e;
  const double kv_bytes = 2.0 * a.batch * a.kv_heads * double(a.seq_kv) * head_dim * e;
  k.dram_bytes = (2 * q_bytes + kv_bytes) / k.blocks;
  k.l2_bytes = 2 * block_q * head_dim * e + steps * 2 * block_kv * head_dim * e;
  k.dram_rounds = kAttentionDramRounds;  // Q, then the first K/V stage
  k.fixed_cycles = kPrefillFixedCycles;
  if (tiles.pipe == Pipe::tensor) {
    // Warpgroup kernels load Q, K and V with TMA bulk copies (FlashAttention-3's producer warpgroup;
    // cuDNN's sm90 flash_fprop alike): one SM draws past the LSU's single-block rate
    // (memory.sm_bandwidth_gbps, 35 GB/s on the H100). Tuning sets (H100, all dev): one query block
    // per head, 32 blocks, one per SM (b1 h32 d128, 4 or 128 query rows), drew 45 GB/s an SM over 16K
    // keys (1.46 us a 128-key step); held to 35 GB/s they came out long: 16K keys +29% -> +19% (now
    // bound by its products), 1,000 keys +10% -> +1%. Attention MAPE: tuning 7.24% -> 6.87%, tuning2
    // 6.54% -> 6.23% (calibrated); dev: one case moves (b1 h16 256 d128, +0.1% -> -2.4%, H100).
    k.bulk_async_loads = true;
    k.fixed_cycles = kWarpgroupPrefillFixedCycles;
    k.startup_cycles = kWarpgroupPrefillStartupCycles;
    // The producer issues every block's Q tile and first K/V stage at once: the first step's round
    // trip waits behind the whole wave's (kWarpgroupPrefillFirstStages).
    k.bytes_in_flight = (block_q * d + kWarpgroupPrefillFirstStages * 2 * block_kv * d) * e;
  }
  // FlashAttention-2's forward holds one K/V stage as well: its block's products wait for its loads
  // (models/attention_block_chain.h).
  if (backend == wl::AttentionBackend::flash2) k.fixed_cycles += lone_block_compute_cycles(k, gpu);
  if (efficient) {
    // Q, then K and V of every step in turn; the kernel needs no workspace (one launch in the profile).
    k.dram_rounds = 1 + kEfficientRoundsPerStep * steps;
    const double warps = block_q * block_kv / kEfficientWarpTile;
    k.threads = static_cast<int>(warps * gpu.warp_size());
    const double warps_per_sm = gpu.cc_major() >= kEfficientWarpsPerSmMinCc && a.dtype != DataType::fp32
                                    ? kEfficientWarpsPerSm
                                    : kEfficientWarpsPerSmOther;
    k.registers = launch_bounds_registers(warps_per_sm, k.threads, gpu.warp_size(), kFa2Registers);
    // One K/V stage: the block's products wait for its loads (models/attention_block_chain.h).
    k.fixed_cycles += lone_block_compute_cycles(k, gpu);
    return PlanOption{k.name, {k}, 0, {}};
  }
  if (splits > 1) {
    // The split kernel writes fp32 partial outputs and their log-sum-exps instead of O; the combine
    // kernel (flash_fwd_splitkv_combine_kernel) reads each row's log-sum-exps, then each split's partial
    // row in turn (a dependent round trip per split), and writes O.
    const double rows = bh * double(a.seq_q);
    const double partials = rows * splits * (d + kPartialStatsPerRow);
    k.dram_bytes = (q_bytes + kv_bytes + partials * kPartialBytes) / k.blocks;
    k.dram_write_bytes = partials * kPartialBytes / k.blocks;
    KernelPlan combine = streaming_kernel("split-KV combine", partials, partials * kPartialBytes,
                                          rows * head_dim * e, kCombineInstructionsPerPartial, gpu);
    combine.dram_rounds = 1 + splits;
    return PlanOption{k.name, {k, combine}, 0, {}};
  }
  // FlashAttention-2's forward launches its kernel alone (flash_fwd_kernel, one launch in every flash2
  // profile, dev and calibration); cuDNN zeroes a workspace first (the Memset in its profiles).
  if (backend == wl::AttentionBackend::flash2) return PlanOption{k.name, {k}, 0, {}};
  PlanOption option{k.name, {memset_kernel(gpu), k}, 0, {}};
  return option;
}

PlanOption decode(const wl::AttentionOp& a, const device::Device& gpu) {
  const double e = bytes_per_element(a.dtype);
  const double d = static_cast<double>(a.head_dim);
  // The query heads of a group share their K/V head: the kernel packs them (and the query rows)
  // into one 16-row tile, so each K/V head is streamed once per tile.
  const double group = double(a.heads) / double(a.kv_heads);
  const double rows = group * double(a.seq_q);
  const double tiles = double(a.batch) * double(a.kv_heads) * std::ceil(rows / kDecodeRows);
  // Split the KV sequence so that the grid fills the GPU at least twice over.
  const double kv_chunks = std::ceil(double(a.seq_kv) / kBlockKV);
  double splits = std::clamp(std::ceil(kDecodeWavesTarget * gpu.sms() / tiles), 1.0, kv_chunks);
  double blocks = tiles * splits;
  double steps = std::ceil(kv_chunks / splits);
  const bool lean = resolve_backend(a, gpu) == wl::AttentionBackend::cudnn;
  if (lean) {
    // cuDNN's decode (lean attention): no split where the tiles fill the SMs or the context is short;
    // otherwise one persistent block per SM takes an equal share of all tiles' KV chunks (stream-K,
    // no wave quantization), and lean_reduction_kernel combines the partials.
    if (tiles >= gpu.sms() || kv_chunks <= kLeanMinChunks) {
      splits = 1;
      blocks = tiles;
      steps = kv_chunks;
    } else {
      blocks = gpu.sms();
      steps = std::ceil(tiles * kv_chunks / blocks);
      splits = std::max(1.0, blocks / tiles);
    }
  }
  KernelPlan k;
  k.name = std::string(lean ? "lean attention decoding, " : "flash decoding, ") +
           std::to_string(int(splits)) + " KV splits";
  k.blocks = blocks;
  k.threads = kDecodeThreads;
  k.registers = kDecodeRegisters;
  const double stages =
      kDecodeKvStages * 2 * kBlockKV * d * e <= gpu.shared_bytes_per_block() ? kDecodeKvStages : 1;
  k.shared_bytes = stages * 2 * kBlockKV * d * e;
  k.pipe = Pipe::mma_sync;
  k.dtype = a.dtype;
  const double scores = kDecodeRows * kBlockKV * steps;
  k.pipe_flops = 4 * d * scores;
  k.simt_instructions = kSoftmaxInstructionsPerScore * scores;
  k.sfu_ops = scores;
  k.overlap = kSoftmaxOverlap;
  const double kv_bytes = 2.0 * a.batch * a.kv_heads * double(a.seq_kv) * d * e;
  const double bh = double(a.batch) * double(a.heads);
  const double q_bytes = bh * double(a.seq_q) * d * e;
  const double partial_bytes =
      splits > 1 ? bh * a.seq_q * splits * (d + kPartialStatsPerRow) * kPartialBytes : 0;
  k.dram_bytes = (kv_bytes + 2 * q_bytes + partial_bytes) / k.blocks;
  k.dram_write_bytes = (q_bytes + partial_bytes) / k.blocks;
  k.l2_bytes = k.dram_bytes;
  // Decode reads the whole KV cache and writes one row per head: the dirty lines its reads evict (the
  // flush's or the step's earlier outputs) are written back while it streams (models/l2_writeback.h).
  // Dev, H100 and H200: the long decode kernels (90 us to 1.4 ms) measure 11-16 us over their profiled
  // time under do_bench, against none for prefill kernels as long (compute bound, the write-backs
  // hidden), about the L2's dirty share at the DRAM rate.
  k.dirty_evicted_bytes = evicted_dirty_bytes(kv_bytes + q_bytes, 1, gpu) / k.blocks;
  k.dram_rounds = kAttentionDramRounds;
  // A decode block's serial part is the warp-level prefill's (kPrefillFixedCycles): the prologue, Q and
  // the first K/V stage from a flushed L2, the final rescale and the (partial) store. Dev, H100 and
  // H200: cuDNN's lean decode of b1 h32/8 1000 keys runs one 128-key step per block in 5.4-5.6 us
  // (profiled), 2.3 us predicted with the former 1,000 cycles; the long decodes are memory bound either
  // way. Dev attention MAPE 5.29% -> 4.93% (H100), 8.83% -> 8.30% (H200 calibrated).
  k.fixed_cycles = kPrefillFixedCycles;
  // The library's decode path costs the host more per call (launch.host_attention_decode_us, a
  // host fact): do_bench hides host work shorter than its L2 flush; eager timelines pay it.
  PlanOption option{k.name, {k}, gpu.launch().host_attention_decode_us};
  if (splits > 1) {
    const double partials = bh * double(a.seq_q) * splits * (d + kPartialStatsPerRow);
    KernelPlan combine = streaming_kernel("split-KV combine", partials, partials * kPartialBytes,
                                          bh * a.seq_q * d * e, kCombineInstructionsPerPartial, gpu);
    if (lean) combine.fixed_cycles = kLeanReductionFixedCycles;
    option.kernels.push_back(combine);
  }
  return option;
}

}  // namespace

// The math backend: PyTorch's unfused composition, each step its own op (scores materialized in
// DRAM): Q K^T as a batched GEMM, the scale (and causal mask) pointwise, softmax over the keys,
// then P V. Backward runs the same products transposed, twice as many, and the softmax gradient.
// Half-precision inputs are computed in fp32 (PyTorch 2.5+ upcasts q, k and v in the math path
// unless allow_fp16_bf16_reduction_math_sdp is set): casts in and out, fp32 products and scores.
PlanOption math_attention(const wl::AttentionOp& a, const device::Device& gpu) {
  const wl::Count bh = a.batch * a.heads;
  const bool upcast = a.dtype == DataType::bf16 || a.dtype == DataType::fp16;
  const DataType t = upcast ? DataType::fp32 : a.dtype;
  wl::GemmOp qk;
  qk.m = a.seq_q;
  qk.n = a.seq_kv;
  qk.k = a.head_dim;
  qk.batch = bh;
  qk.dtype = qk.out_dtype = t;
  qk.transpose_b = true;  // K^T: K is stored [seq_kv, head_dim]
  wl::GemmOp pv = qk;
  pv.n = a.head_dim;
  pv.k = a.seq_kv;
  pv.transpose_b = false;
  wl::ElementwiseOp scale;
  scale.elements = bh * a.seq_q * a.seq_kv;
  scale.dtype = scale.out_dtype = t;
  scale.inputs = a.causal ? 2 : 1;  // the mask is a second input
  wl::RowOp softmax;
  softmax.kind = wl::RowOpKind::softmax;
  softmax.rows = bh * a.seq_q;
  softmax.cols = a.seq_kv;
  softmax.dtype = t;
  PlanOption option{"math attention (unfused)", {}, 0, {}};
  // Forward as PyTorch's _scaled_dot_product_attention_math runs it (the kernels of the H100 and H200
  // profiles, dev and calibration): q and k scaled by sqrt(scale) each (q- and k-sized), Q K^T, the
  // causal mask added to the scores, softmax, then the check for fully masked rows (isneginf over the
  // scores, an all() over each row, a where() that zeroes them), P cast to the input type and back
  // for the product with V (upcast inputs), P V.
  wl::ElementwiseOp q_scale, k_scale;
  q_scale.elements = bh * a.seq_q * a.head_dim;
  k_scale.elements = a.batch * a.kv_heads * a.seq_kv * a.head_dim;
  q_scale.dtype = q_scale.out_dtype = k_scale.dtype = k_scale.out_dtype = t;
  wl::ElementwiseOp isneginf = scale, where = scale;
  isneginf.inputs = 1;
  isneginf.out_dtype = DataType::int8;  // bool
  where.inputs = 2;
  wl::RowOp all_masked;
  all_masked.kind = wl::RowOpKind::reduce;
  all_masked.rows = bh * a.seq_q;
  all_masked.cols = a.seq_kv;
  all_masked.dtype = DataType::int8;
  wl::ElementwiseOp mask_add = scale;
  mask_add.inputs = 2;
  option.sub_ops = {q_scale, k_scale, qk};
  if (a.causal) option.sub_ops.push_back(mask_add);
  option.sub_ops.insert(option.sub_ops.end(), {softmax, isneginf, all_masked, where});
  if (upcast) {
    wl::ElementwiseOp p_cast = scale;
    p_cast.inputs = 1;
    p_cast.out_dtype = a.dtype;
    option.sub_ops.push_back(p_cast);
  }
  option.sub_ops.push_back(pv);
  if (a.backward) {
    // Autograd walks the saved graph back (no forward recompute): dV = P^T dO and dP = dO V^T, the
    // softmax's backward on the scores (the product with P, then softmax_backward's row pass), and
    // dQ = dS K, dK = dS^T Q: three d-wide products over the sequence and one score-sized one.
    wl::ElementwiseOp grad_mul = scale;
    grad_mul.inputs = 2;
    option.sub_ops = {pv, qk, grad_mul, pv, pv};
    // The softmax's backward (softmax_warp_backward in the dev profiles) reads the gradient and the
    // saved probabilities and writes dS: three score-sized streams, where the forward's kernel moves
    // two (dev: b4 h32 1024 d128, 530 us, as long as the two-input multiply before it).
    const double scores = double(bh) * double(a.seq_q) * double(a.seq_kv);
    const double score_bytes = scores * bytes_per_element(t);
    option.kernels.push_back(streaming_kernel("softmax backward", scores, 2 * score_bytes, score_bytes,
                                              kSoftmaxBackwardInstructionsPerElement, gpu));
  }
  if (upcast) {
    wl::ElementwiseOp q_in, kv_in, out;
    q_in.elements = out.elements = bh * a.seq_q * a.head_dim;
    kv_in.elements = a.batch * a.kv_heads * a.seq_kv * a.head_dim;
    q_in.dtype = kv_in.dtype = out.out_dtype = a.dtype;
    q_in.out_dtype = kv_in.out_dtype = out.dtype = DataType::fp32;
    if (!a.backward) {
      option.sub_ops.insert(option.sub_ops.begin(), {q_in, kv_in, kv_in});
      option.sub_ops.push_back(out);
    } else {
      // dO cast up; the scale's gradient on dQ and dK (fp32); dQ, dK and dV cast back.
      wl::ElementwiseOp q_scale = q_in, kv_out = out;
      q_scale.dtype = q_scale.out_dtype = DataType::fp32;
      kv_out.elements = kv_in.elements;
      option.sub_ops.insert(option.sub_ops.begin(), q_in);
      option.sub_ops.insert(option.sub_ops.end(), {q_scale, q_scale, out, kv_out, kv_out});
    }
  }
  if (a.backward) {
    // The host issues every kernel from its node (an eager op's host time each) and runs every node
    // of the graph: do_bench's flush hides what is shorter (sim/op_predictor.cpp).
    const double nodes = 2 * kMathMatmulAutogradNodes + kMathOtherAutogradNodes +
                         (a.causal ? kMathCausalAutogradNodes : 0) + (upcast ? kMathUpcastAutogradNodes : 0);
    const double launches = double(option.kernels.size() + option.sub_ops.size());
    const double eager_us = gpu.launch().host_eager_us;
    option.host_us = (kAutogradCallOverEagerOp + launches + nodes * kAutogradNodeOverEagerOp) * eager_us;
    option.host_between_launches = true;
  } else {
    // The forward is eager ops issued one after another by the host (an eager op's host time each):
    // every kernel's op, the causal mask's five small kernels the model leaves out (ones, tril, two
    // fills and the where of the boolean mask's conversion; _safe_softmax's zero fill), and each
    // matmul's expand, reshape and _unsafe_view views plus k's transpose, which launch nothing (the H100
    // and H200 profiles' kernels of the math forward, dev). Shorter than do_bench's flush it hides.
    const double launches = double(option.kernels.size() + option.sub_ops.size()) + kMathSafeSoftmaxFillOps +
                            (a.causal ? kMathCausalMaskOps : 0);
    const double views = 2 * kMathMatmulViewOps + kMathTransposeOps;
    option.host_us = (launches + views) * gpu.launch().host_eager_us +
                     kMathForwardLibraryCalls * gpu.launch().host_library_us;
    option.host_between_launches = true;
  }
  return option;
}

std::vector<PlanOption> AttentionModel::plan(const wl::Op& op, const device::Device& gpu) const {
  const auto& a = std::get<wl::AttentionOp>(op);
  const wl::AttentionBackend backend = resolve_backend(a, gpu);
  if (backend == wl::AttentionBackend::math) return {math_attention(a, gpu)};
  const bool warpgroup = warpgroup_kernel(backend, gpu);  // a backend the GPU cannot run is an error
  gpu.require_tensor(a.dtype);                            // fused kernels need tensor cores for this type
  if (a.backward) return {attention_backward_plan(a, backend, warpgroup, gpu)};
  // cuDNN runs its split-KV decode kernel for a single query row only; a few rows (speculative
  // decoding, chunked prefill) take its prefill kernel, one query tile per head walking every key.
  const double decode_rows = backend == wl::AttentionBackend::cudnn ? kCudnnDecodeMaxRows : kDecodeRows - 1;
  const bool fused_decode = double(a.seq_q) <= decode_rows && !a.backward &&
                            backend != wl::AttentionBackend::efficient &&
                            !flash2_single_block_forward(a, backend);
  if (fused_decode) {
    // Flash decoding needs at least one stage of a K and a V tile in shared memory; where it does
    // not fit (64 KB Turing SMs) PyTorch runs the memory-efficient kernel instead.
    const double stage_bytes = 2 * kBlockKV * double(a.head_dim) * bytes_per_element(a.dtype);
    if (stage_bytes <= gpu.shared_bytes_per_block()) return {decode(a, gpu)};
    wl::AttentionOp efficient = a;
    efficient.backend = wl::AttentionBackend::efficient;
    return {prefill(efficient, gpu)};
  }
  return {prefill(a, gpu)};
}

}  // namespace gpucast::models
