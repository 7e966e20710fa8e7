#include "models/attention_model.h"

#include <algorithm>
#include <cmath>

#include "models/helper_kernels.h"

namespace gpucast::models {
namespace {

// Query rows per block (two consumer warpgroups of 64 rows share each K/V tile) and key/value
// rows per step of the prefill kernel.
constexpr double kBlockQ = 128;
constexpr double kBlockKV = 128;
// Query rows below which the library switches to its split-KV decode kernel.
constexpr double kDecodeRows = 16;
// Softmax between the two matrix products: scale, max, subtract, convert, sum per score (lanes).
constexpr double kSoftmaxInstructionsPerScore = 8;
// Share of the softmax work hidden under the tensor-core products: two consumer warpgroups
// ping-pong (one runs softmax while the other multiplies). 0.85 reproduces head_dim 128 and 64
// alike on the dev half of the H200 run.
constexpr double kSoftmaxOverlap = 0.85;
// Causal kernels mask the diagonal tiles element by element.
constexpr double kCausalEfficiency = 0.9;
// Host time of the library's decode path per call (cuDNN SDPA through PyTorch 2.11), from the
// framework probe (15.7 us on the H200 machine, 24.4 us on the H100 one). do_bench hides host work
// shorter than its L2 flush; eager timelines pay it.
constexpr double kDecodeHostUs = 20;

// Average number of KV steps a query block executes; causal blocks stop at the diagonal
// (aligned to the end of the keys, as FlashAttention does when seq_q < seq_kv).
double kv_steps_per_block(const wl::AttentionOp& a) {
  const double q_blocks = std::ceil(double(a.seq_q) / kBlockQ);
  const double full = std::ceil(double(a.seq_kv) / kBlockKV);
  if (!a.causal) return full;
  const double offset = double(a.seq_kv) - double(a.seq_q);
  double total = 0;
  for (double i = 0; i < q_blocks; ++i) {
    const double last_key = std::min(double(a.seq_kv), offset + (i + 1) * kBlockQ);
    total += std::max(1.0, std::ceil(last_key / kBlockKV));
  }
  return total / q_blocks;
}

PlanOption prefill(const wl::AttentionOp& a, const hw::GpuSpec& gpu) {
  const double e = bytes_per_element(a.dtype);
  const double d = static_cast<double>(a.head_dim);
  const double bh = double(a.batch) * double(a.heads);
  const double q_blocks = std::ceil(double(a.seq_q) / kBlockQ);
  const double steps = kv_steps_per_block(a);
  KernelPlan k;
  k.name = "flash attention fwd " + std::to_string(int(kBlockQ)) + "x" + std::to_string(int(kBlockKV)) +
           (a.causal ? " causal" : "");
  k.blocks = q_blocks * bh;
  k.threads = 384;  // one producer and two consumer warpgroups
  k.registers = 168;
  k.shared_bytes = (kBlockQ * d + 2 * 2 * kBlockKV * d) * e;  // Q tile, double-buffered K and V
  k.pipe = Pipe::tensor;
  k.dtype = a.dtype;
  const double scores = kBlockQ * kBlockKV * steps;
  k.pipe_flops = 4 * d * scores;
  // The diagonal step of a causal block computes a full tile and masks half of it.
  k.pipe_efficiency = a.causal ? kCausalEfficiency : 1.0;
  k.simt_instructions = kSoftmaxInstructionsPerScore * scores;
  k.sfu_ops = scores;
  k.overlap = kSoftmaxOverlap;
  // DRAM: Q, K, V and O once (the K/V of one head is shared by its query blocks through L2).
  const double q_bytes = bh * double(a.seq_q) * d * e;
  const double kv_bytes = 2.0 * a.batch * a.kv_heads * double(a.seq_kv) * d * e;
  k.dram_bytes = (2 * q_bytes + kv_bytes) / k.blocks;
  k.l2_bytes = 2 * kBlockQ * d * e + steps * 2 * kBlockKV * d * e;
  k.dram_rounds = 2;  // Q, then the first K/V stage
  k.fixed_cycles = 1500;  // prologue, the final rescale and the O store
  PlanOption option{k.name, {memset_kernel(gpu), k}, 0};
  return option;
}

PlanOption decode(const wl::AttentionOp& a, const hw::GpuSpec& gpu) {
  const double e = bytes_per_element(a.dtype);
  const double d = static_cast<double>(a.head_dim);
  // The query heads of a group share their K/V head: the kernel packs them (and the query rows)
  // into one 16-row tile, so each K/V head is streamed once per tile.
  const double group = double(a.heads) / double(a.kv_heads);
  const double rows = group * double(a.seq_q);
  const double tiles = double(a.batch) * double(a.kv_heads) * std::ceil(rows / kDecodeRows);
  // Split the KV sequence so that the grid fills the GPU at least twice over.
  const double kv_chunks = std::ceil(double(a.seq_kv) / kBlockKV);
  const double splits = std::clamp(std::ceil(2.0 * gpu.sm.count / tiles), 1.0, kv_chunks);
  KernelPlan k;
  k.name = "flash decoding, " + std::to_string(int(splits)) + " KV splits";
  k.blocks = tiles * splits;
  k.threads = 128;
  k.registers = 128;
  k.shared_bytes = 2 * 2 * kBlockKV * d * e;
  k.pipe = Pipe::mma_sync;
  k.dtype = a.dtype;
  const double steps = std::ceil(kv_chunks / splits);
  const double scores = kDecodeRows * kBlockKV * steps;
  k.pipe_flops = 4 * d * scores;
  k.simt_instructions = kSoftmaxInstructionsPerScore * scores;
  k.sfu_ops = scores;
  k.overlap = kSoftmaxOverlap;
  const double kv_bytes = 2.0 * a.batch * a.kv_heads * double(a.seq_kv) * d * e;
  const double bh = double(a.batch) * double(a.heads);
  const double q_bytes = bh * double(a.seq_q) * d * e;
  const double partial_bytes = splits > 1 ? bh * a.seq_q * splits * (d + 2) * 4.0 : 0;
  k.dram_bytes = (kv_bytes + 2 * q_bytes + partial_bytes) / k.blocks;
  k.dram_write_bytes = (q_bytes + partial_bytes) / k.blocks;
  k.l2_bytes = k.dram_bytes;
  k.dram_rounds = 2;
  k.fixed_cycles = 1000;
  PlanOption option{k.name, {k}, kDecodeHostUs};
  if (splits > 1) {
    const double partials = bh * double(a.seq_q) * splits * (d + 2);
    option.kernels.push_back(
        streaming_kernel("split-KV combine", partials, partials * 4.0, bh * a.seq_q * d * e, 6, gpu));
  }
  return option;
}

}  // namespace

std::vector<PlanOption> AttentionModel::plan(const wl::Op& op, const hw::GpuSpec& gpu) const {
  const auto& a = std::get<wl::AttentionOp>(op);
  (void)gpu.tensor_tflops(a.dtype);  // throws when the GPU has no tensor cores for this type
  if (double(a.seq_q) < kDecodeRows) return {decode(a, gpu)};
  return {prefill(a, gpu)};
}

}  // namespace gpucast::models
