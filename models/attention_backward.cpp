#include "models/attention_backward.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "models/attention_block_chain.h"
#include "models/attention_head_tile.h"
#include "models/attention_mma_sync_share.h"
#include "models/block_dispatch.h"
#include "models/helper_kernels.h"
#include "models/launch_bounds.h"

namespace gpucast::models {
namespace {
// Main-kernel tiles (query rows x key rows per step), threads and registers per backend. Library
// facts from the kernel names in validation/<gpu>/kernels.json (H100, H200):
// cuDNN sm90: cudnn_generated_fort_native_sdpa_sm90_flash_bprop_wgmma_f16_knob_26_64x64x{64,128}.
constexpr double kCudnnBlockQ = 64;
constexpr double kCudnnBlockKV = 64;
constexpr int kCudnnThreads = 256;    // assumption: two warpgroups
constexpr int kCudnnRegisters = 128;  // assumption
// FlashAttention-2 (pytorch_flash::flash_bwd_dq_dk_dv_loop_seqk_parallel_kernel, Flash_bwd_kernel_traits
// <d, kBlockM, kBlockN, 8 warps>): <64, 128, 128, 8> and <128, 64, 128, 8>; head_dim 256 runs 64 x 64
// (flash_bwd_launch_template.h).
constexpr double kFa2SmallHead = 64;
constexpr double kFa2MediumHead = 128;
constexpr double kFa2LargeTile = 128;
constexpr double kFa2SmallTile = 64;
constexpr int kFa2Threads = 256;
constexpr int kFa2Registers = 255;
// xFormers' memory-efficient backward (fmha_cutlassB_..._128x128_k128_..._sm80): 128 x 128 tiles for
// heads up to 128, 64 x 64 for up to 64 (AttentionBackwardKernel's kBlockSizeI / kBlockSizeJ).
constexpr double kEfficientSmallHead = 64;
constexpr double kEfficientSmallTile = 64;
constexpr double kEfficientLargeTile = 128;
// Its warps and occupancy (PyTorch's mem_eff_attention/kernel_backward.h; library facts):
// kNumWarpsPerBlock = kBlockSizeI x kBlockSizeJ / (32 x 32) (4 at 64 x 64, 16 at 128 x 128), and
// __launch_bounds__ asks for getWarpsPerSmBw() = 12 warps per SM (half types on sm80 and later, 8
// otherwise) in kMinBlocksPerSm blocks, which caps the registers at the 64K register file over them.
constexpr double kEfficientWarpTile = 32 * 32;
constexpr double kWarpThreads = 32;
constexpr double kEfficientWarpsPerSmBw = 12;
constexpr double kEfficientWarpsPerSmBwOther = 8;
constexpr int kEfficientWarpsPerSmBwMinCc = 8;
constexpr int kEfficientRegisters = 255;
// Its serial chain (kernel_backward.h; library facts): with fp16/bf16 inputs every block computes
// rowsum(dO * O) for all of its head's query rows before its first step (kKernelComputesDelta:
// computeDelta over every kBlockSizeI-row tile, each a two-stage pipeline of dependent dO and O
// loads: two round trips a tile), and each step loads its Q and dO tiles behind barriers and
// takes the dQ workspace's lock, loads the partial dQ, adds and stores it (AtomicLock, GmemTile):
// dependent round trips per step, as many as the forward's kEfficientRoundsPerStep. Fit with
// kEfficientBackwardEfficiency below (3-5 rounds a step, 1-3 a tile scanned): the small cases'
// main kernels (tuning sets, H100: b8 h12 256 d64, 45.5 us, three blocks per SM; b1 h16 512 d64
// causal, 54.4 us, one block per SM) came out 30% and 61% short without the chain, 2-3% long with.
constexpr double kEfficientDeltaRoundsPerTile = 2;
constexpr double kEfficientBackwardRoundsPerStep = 4;
// Five products per tile: S = Q K^T, dP = dO V^T, dV += P^T dO, dK += dS^T Q, dQ += dS K
// (FlashAttention-2, Algorithm 2), each 2 x rows x keys x d FLOPs.
constexpr double kBackwardProducts = 5;
// Lane instructions per score: the softmax recomputed from the saved log-sum-exp and dS = P (dP - D)
// (as the forward's 8: scale, subtract, convert, and the gradient's subtract-multiply); one exponent
// per score on the SFU. Fit with the rates below.
constexpr double kSimtInstructionsPerScore = 8;
// The backward's SIMT work is on the products' dependency chain (S -> P -> dP -> dS -> dQ, dK): the
// kernels cannot ping-pong it under another warpgroup's products as the forward does, so it adds to
// them (FlashAttention-3, section 3.3: the backward overlaps less). Fit together with the rates below:
// with the SIMT work exposed, head_dim 64 and 128 fit one pipe share per backend.
constexpr double kBackwardOverlap = 0;
// Share of the tensor pipe's sustained rate the products reach. FlashAttention-2 and xFormers: of
// mma.sync's calibrated rate, from the calibration split (too few dev cases large enough:
// attention_bwd-0984, -0992 and -1011, -1019 on the H100, dev included). xFormers' refit with its
// serial chain (kEfficientBackwardRoundsPerStep): 0.26 -> 0.31 over the calibration and dev cases of
// both GPUs (-1011, -1013, -1019) and the tuning sets' two small ones, calibrated and catalog
// descriptions (0.29-0.31 scanned).
// cuDNN's (and FlashAttention-3's) warpgroup kernels: of the datasheet tensor peak, not of the GPU's
// calibrated GEMM rate: the GEMM calibration runs the tensor cores at full duty, where the power
// limiter lowers the clock (the H200's cuBLASLt efficiency calibrates at 0.726 against the H100's
// 0.767), while the backward's products wait on its exposed SIMT chain and run at the full clock on
// both: dev, the cuDNN main kernels of the same cases take the same time on the H100 and the H200
// (within 2%, head_dim 64 and 128, causal or not). Fit on the dev split's cuDNN cases, H100 and H200,
// together with kBackwardBlockSerialSteps (shares 0.80-0.87 and 3-6 steps scanned).
constexpr double kCudnnBackwardPeakShare = 0.83;
constexpr double kFa2BackwardEfficiency = 0.61;
constexpr double kEfficientBackwardEfficiency = 0.31;
// The dQ accumulator is fp32 (FlashAttention's dq_accum, cuDNN's dQ workspace; library fact); D =
// rowsum(dO * O) is one fp32 per query row.
constexpr double kAccumBytes = 4;
// Lane instructions per element: rowsum(dO * O) (two loads, multiply-add, reduce share), the dQ
// conversion and the group sum (assumption).
constexpr double kDotInstructionsPerElement = 4;
constexpr double kDqConvertInstructionsPerElement = 2;
constexpr double kReduceHeadInstructionsPerElement = 2;
// PyTorch's flash backward copies out and dO into the kernel's layout first (two
// elementwise_kernel<128, 4> direct copies in every profile): 4 elements per thread, not vectorized,
// each element's source and destination offsets computed through the OffsetCalculator of the
// permuted 4-d views. Instruction bound: the calibration split's flash2 cases copy 16.8M and 33.5M
// bf16 elements in 49.5, 88.7 and 96.3 us on the H100 and 48.2, 84.3 and 94.3 us on the H200 (the same
// on both GPUs, at 1.4 TB/s far from either's DRAM rate), 85-87 lane instructions per element at the
// H100's clock: the elementwise model's count for PyTorch's non-vectorized offset arithmetic
// (kUnrolledInstructions, models/elementwise_model.cpp).
constexpr double kCopyInstructionsPerElement = 90;
constexpr double kCopyElementsPerThread = 4;
// Serial cycles per block: the prologue (K and V tiles, the zeroed dK and dV accumulators), the
// first step's chain of five dependent products and the dK/dV epilogue. Dev: the small cases
// (b8 h12 and b4 h32 at 256 tokens, head_dim 64: two waves of blocks of four steps or fewer) take
// about 8 us a wave on the H100; large grids hide it under their products.
constexpr double kBackwardFixedCycles = 16000;
// A block's prologue and epilogue do not overlap its products: it loads its K and V tiles and zeroes
// its dK and dV accumulators before the first step, and writes dK and dV after the last, and the
// blocks of a wave, equal in work, do both at the same time. Charged as steps' worth of time per
// block. Dev (cuDNN, H100 and H200): per score, head_dim 128 at 4,096 tokens (64 steps a block) runs
// 4% faster than at 2,048 (32 steps), and a causal grid (half the steps, as many blocks) 12% slower
// than half the full one; without this term the long and causal cases came out 7-12% apart.
constexpr double kBackwardBlockSerialSteps = 4;

// Smallest tile side the halving to fit shared memory goes to (assumption).
constexpr double kMinBlock = 16;
// Key blocks the causal average visits one by one; longer sequences are sampled evenly (bounds the
// loop for any input).
constexpr double kMaxCausalSamples = 65536;

struct BackwardTiles {
  double block_q, block_kv;
  int threads, registers;
  Pipe pipe;
  double efficiency, overlap;
  std::string family;
  double serial_steps = 0;
};

BackwardTiles tiles_for(wl::AttentionBackend backend, bool warpgroup, double d) {
  if (warpgroup)
    return {kCudnnBlockQ,
            kCudnnBlockKV,
            kCudnnThreads,
            kCudnnRegisters,
            Pipe::tensor,
            kCudnnBackwardPeakShare,
            kBackwardOverlap,
            "cudnn sm90 flash bprop",
            kBackwardBlockSerialSteps};
  if (backend == wl::AttentionBackend::efficient) {
    const double t = d <= kEfficientSmallHead ? kEfficientSmallTile : kEfficientLargeTile;
    return {t,
            t,
            static_cast<int>(t * t / kEfficientWarpTile * kWarpThreads),
            kEfficientRegisters,
            Pipe::mma_sync,
            kEfficientBackwardEfficiency,
            kBackwardOverlap,
            "memory-efficient (cutlassB) bwd"};
  }
  const double block_q = d <= kFa2SmallHead ? kFa2LargeTile : kFa2SmallTile;
  const double block_kv = d <= kFa2MediumHead ? kFa2LargeTile : kFa2SmallTile;
  return {block_q,          block_kv,
          kFa2Threads,      kFa2Registers,
          Pipe::mma_sync,   kFa2BackwardEfficiency,
          kBackwardOverlap, "flash2 bwd dq dk dv"};
}

// Causal grids: key block j walks the query tiles from the diagonal on. The blocks go to the SMs in
// launch order (key block fastest, then the head), each to the first slot that frees: the grid's length
// in waves of its average block (models/block_dispatch.h). Dev (H100): the causal cuDNN cases a few
// heads deep (b1 h16 4096 tokens d64, b1 h32 2048 d128, b4 h32 256 d64) ran 15-40% over their average
// work, those many heads deep (b16 h16 2048, b2 h32 4096) within 5%: as this schedule gives.
double causal_dispatch_waves(const wl::AttentionOp& a, const BackwardTiles& t, double kv_blocks, double bh,
                             const KernelPlan& k, const device::Device& gpu) {
  const double slots = double(gpu.blocks_per_sm(k.resources(), k.name)) * gpu.sms();
  const double blocks = kv_blocks * bh;
  if (!(slots >= 1) || blocks > kMaxScheduledBlocks) return 0;  // the timer's own waves
  const double sq = double(a.seq_q), offset = double(a.seq_kv) - sq;
  std::vector<double> head;
  head.reserve(static_cast<std::size_t>(kv_blocks));
  for (double j = 0; j < kv_blocks; ++j) {
    const double first_query = std::max(0.0, j * t.block_kv - offset);
    head.push_back(std::max(1.0, std::ceil((sq - std::min(sq, first_query)) / t.block_q)) + t.serial_steps);
  }
  return dispatch_waves_repeated(head, bh, slots);
}

}  // namespace

PlanOption attention_backward_plan(const wl::AttentionOp& a, wl::AttentionBackend backend, bool warpgroup,
                                   const device::Device& gpu) {
  const double e = bytes_per_element(a.dtype);
  // cuDNN computes on its head-dimension tile (models/attention_head_tile.h); the tensors keep theirs.
  const double head_dim = static_cast<double>(a.head_dim);
  const bool cudnn_tile = warpgroup && backend == wl::AttentionBackend::cudnn;
  const double d = cudnn_tile ? cudnn_head_dim_tile(head_dim) : head_dim;
  const double bh = double(a.batch) * double(a.heads);
  const double sq = double(a.seq_q), skv = double(a.seq_kv);
  BackwardTiles t = tiles_for(backend, warpgroup, d);
  // GPUs with less shared memory per block run smaller tiles (FlashAttention-2's sm86 / sm89 launch
  // paths halve kBlockN, then kBlockM): halve the key tile, then the query tile, until they fit.
  auto smem = [&] { return (2 * 2 * t.block_q * d + 2 * t.block_kv * d) * e; };
  while (smem() > gpu.shared_bytes_per_block() && t.block_kv > kMinBlock) t.block_kv /= 2;
  while (smem() > gpu.shared_bytes_per_block() && t.block_q > kMinBlock) t.block_q /= 2;
  const double q_elements = bh * sq * head_dim;
  const double q_bytes = q_elements * e;
  const double kv_blocks = std::ceil(skv / t.block_kv);
  const double q_tiles = std::ceil(sq / t.block_q);

  // Query tiles each key/value block walks: all of them, or (causal, aligned to the end of the keys as
  // FlashAttention does when seq_q < seq_kv) those from the diagonal on.
  double steps = q_tiles;
  if (a.causal) {
    const double offset = skv - sq;
    const double samples = std::min(kv_blocks, kMaxCausalSamples);
    double total = 0;
    for (double i = 0; i < samples; ++i) {
      const double j = std::floor(i * kv_blocks / samples);
      const double first_query = std::max(0.0, j * t.block_kv - offset);
      total += std::max(1.0, std::ceil((sq - std::min(sq, first_query)) / t.block_q));
    }
    steps = total / samples;
  }

  KernelPlan k;
  k.name = t.family + " " + std::to_string(int(t.block_q)) + "x" + std::to_string(int(t.block_kv)) +
           (a.causal ? " causal" : "");
  k.blocks = bh * kv_blocks;
  k.threads = t.threads;
  k.registers = t.registers;
  const bool efficient = backend == wl::AttentionBackend::efficient && !warpgroup;
  if (efficient) {
    // The launch bounds' blocks per SM share the register file.
    const double warps_per_sm = gpu.cc_major() >= kEfficientWarpsPerSmBwMinCc && a.dtype != DataType::fp32
                                    ? kEfficientWarpsPerSmBw
                                    : kEfficientWarpsPerSmBwOther;
    k.registers = launch_bounds_registers(warps_per_sm, k.threads, kWarpThreads, kEfficientRegisters);
  }
  // Q, dO tiles (double-buffered) and the block's K and V tiles.
  k.shared_bytes = smem();
  k.pipe = t.pipe;
  k.dtype = a.dtype;
  // The grid's fastest index is the key/value block, from the first keys (the longest causal walk)
  // to the last (the shortest), then the head (FlashAttention-2's grid (n_blocks, batch, heads);
  // cuDNN's alike, dev: see causal_dispatch_waves). A causal grid only a few heads deep per slot ends
  // on the last heads' long blocks, started late.
  k.longest_block_ratio = 1;
  if (a.causal) k.dispatch_waves = causal_dispatch_waves(a, t, kv_blocks, bh, k, gpu);
  // Each block's prologue and epilogue as steps' worth of its work (kBackwardBlockSerialSteps).
  const double scores = t.block_q * t.block_kv * (steps + t.serial_steps);
  k.pipe_flops = kBackwardProducts * 2 * d * scores;
  // The diagonal tile is computed whole and masked: it is counted as a full step above, and its
  // masking costs no measurable time once the causal grid's tail is charged (dev: the causal cuDNN
  // cases came out 7-16% long with the forward's 0.9 on top of the schedule, 2-8% either way without).
  k.pipe_efficiency = t.efficiency;
  // Warpgroup kernels: a share of the datasheet peak (kCudnnBackwardPeakShare).
  if (t.pipe == Pipe::tensor)
    k.pipe_efficiency *= gpu.tensor_peak_per_sm(a.dtype) / gpu.pipe_rate(Pipe::tensor, a.dtype);
  // Warp-level kernels: their share of the mma.sync rate, on Hopper of the H100's (as the forward's).
  if (t.pipe == Pipe::mma_sync) k.pipe_efficiency *= hopper_mma_sync_rate_factor(gpu, a.dtype);
  k.simt_instructions = kSimtInstructionsPerScore * scores;
  k.sfu_ops = scores;
  k.overlap = t.overlap;
  // DRAM: Q, dO, O's row sums and log-sum-exp once (their tiles shared through L2), K and V read and
  // dK and dV written by their block (per query head: grouped heads are summed afterwards), and the
  // dQ accumulator read and written back.
  const double kv_bytes = bh * skv * head_dim * e;
  const double row_stats = 2 * bh * sq * kAccumBytes;
  const double accum = q_elements * kAccumBytes;
  k.dram_bytes = (2 * q_bytes + row_stats + 2 * kv_bytes + 2 * kv_bytes + 2 * accum) / k.blocks;
  k.dram_write_bytes = (2 * kv_bytes + accum) / k.blocks;
  // L2: each step reads its Q and dO tiles and row stats, and sends Bq x d fp32 partials of dQ as
  // reductions (the add happens in L2: one transfer per element).
  k.l2_bytes = steps * (2 * t.block_q * head_dim * e + 2 * t.block_q * kAccumBytes +
                        t.block_q * head_dim * kAccumBytes) +
               4 * t.block_kv * head_dim * e;
  k.dram_rounds = 2;
  k.fixed_cycles = kBackwardFixedCycles;
  if (efficient) {
    // Every block first computes rowsum(dO * O) of all its head's query rows, a query tile at a
    // time, then walks its steps, each waiting on its loads and on the dQ workspace
    // (kEfficientDeltaRoundsPerTile, kEfficientBackwardRoundsPerStep). The blocks of a wave, alike,
    // wait and multiply at the same time: an SM's products add to the chain of each of its blocks.
    k.dram_rounds = 1 + kEfficientDeltaRoundsPerTile * q_tiles + kEfficientBackwardRoundsPerStep * steps;
    const double slots = double(gpu.blocks_per_sm(k.resources(), k.name)) * gpu.sms();
    const double resident = std::ceil(std::min(k.blocks, slots) / gpu.sms());
    k.fixed_cycles += resident * lone_block_compute_cycles(k, gpu);
  }

  PlanOption option{
      "attention backward (" + std::string(wl::attention_backend_name(backend)) + "): " + k.name, {}, 0, {}};
  const bool flash2 = !warpgroup && backend != wl::AttentionBackend::efficient;
  if (flash2) {
    for (const char* what : {"copy out to the kernel layout", "copy dO to the kernel layout"})
      option.kernels.push_back(streaming_kernel(what, q_elements, q_bytes, q_bytes,
                                                kCopyInstructionsPerElement, gpu, kCopyElementsPerThread));
  }
  if (warpgroup) option.kernels.push_back(memset_kernel(gpu));
  if (backend == wl::AttentionBackend::efficient && !warpgroup) {
    // The memory-efficient kernel computes rowsum(dO * O) itself; PyTorch zeroes its dQ accumulator.
    KernelPlan fill = streaming_kernel("fill (zero the dQ accumulator)", accum, 0, accum, 1, gpu);
    fill.reads_dram = false;
    option.kernels.push_back(fill);
  } else {
    // rowsum(dO * O) per query row, and the zeroed fp32 dQ accumulator.
    option.kernels.push_back(streaming_kernel("dot(dO, O) and zero dQ accumulator", q_elements, 2 * q_bytes,
                                              bh * sq * kAccumBytes + accum, kDotInstructionsPerElement,
                                              gpu));
  }
  option.kernels.push_back(k);
  if (backend != wl::AttentionBackend::efficient || warpgroup)
    option.kernels.push_back(streaming_kernel("convert dQ accumulator", q_elements, accum, q_bytes,
                                              kDqConvertInstructionsPerElement, gpu));
  if (a.kv_heads < a.heads) {
    // Grouped-query attention: sum dK and dV of each group's query heads (fmha_reduce_head, twice).
    const double group_out = double(a.batch) * double(a.kv_heads) * skv * head_dim;
    for (const char* what :
         {"reduce dK over the query heads of a group", "reduce dV over the query heads of a group"})
      option.kernels.push_back(
          streaming_kernel(what, group_out, kv_bytes, group_out * e,
                           kReduceHeadInstructionsPerElement * double(a.heads) / double(a.kv_heads), gpu));
  }
  return option;
}

}  // namespace gpucast::models
