#pragma once
// How many chunks FlashAttention-2's forward splits the keys into (PyTorch's mha_fwd, which SDPA's
// flash backend calls: set_params_splitkv and num_splits_heuristic in
// aten/src/ATen/native/transformers/cuda/flash_attn/flash_api.cpp; library fact). Grids of 64-row
// query tiles that fill less than 0.8 of twice the SMs (its kernels run 128 threads) take the split-KV
// kernel (flash_fwd_splitkv_kernel, 64 x kBlockN tiles, 4 warps) and a combine kernel; the split count
// is the smallest whose wave efficiency (waves over whole waves) reaches 0.85 of the best, among the
// counts that change the keys per split. Seen in the profiles: b1 h16 512 tokens d64 runs
// flash_fwd_splitkv_kernel<Flash_fwd_kernel_traits<64, 64, 256, 4, ...>> and its combine kernel (dev).
#include <algorithm>
#include <cmath>

namespace gpucast::models {

// The split-KV kernel's query rows per block and its key rows per block by head size.
constexpr double kFlash2SplitBlockQ = 64;
[[nodiscard]] inline double flash2_split_block_kv(double head_dim) {
  return head_dim <= 64 ? 256 : (head_dim <= 128 ? 128 : 64);
}
// The heuristic's constants: the fill below which it splits, the efficiency share it settles for, the
// split cap and the blocks per SM it assumes.
constexpr double kFlash2SplitFill = 0.8;
constexpr double kFlash2SplitEfficiencyShare = 0.85;
constexpr double kFlash2MaxSplits = 128;
constexpr double kFlash2SplitBlocksPerSm = 2;

// Split count for `tiles` = batch x heads x 64-row query tiles over `kv_blocks` key blocks on `sms` SMs.
[[nodiscard]] inline int flash2_num_splits(double tiles, double sms, double kv_blocks) {
  const double slots = kFlash2SplitBlocksPerSm * sms;
  if (!(tiles > 0) || !(slots > 0) || tiles >= kFlash2SplitFill * slots) return 1;
  const int max_splits = static_cast<int>(std::min({kFlash2MaxSplits, slots, std::max(1.0, kv_blocks)}));
  auto eligible = [&](int s) { return s == 1 || std::ceil(kv_blocks / s) != std::ceil(kv_blocks / (s - 1)); };
  auto efficiency = [&](int s) {
    const double waves = tiles * s / slots;
    return waves / std::ceil(waves);
  };
  double best = 0;
  for (int s = 1; s <= max_splits; ++s)
    if (eligible(s)) best = std::max(best, efficiency(s));
  for (int s = 1; s <= max_splits; ++s)
    if (eligible(s) && efficiency(s) >= kFlash2SplitEfficiencyShare * best) return s;
  return 1;
}

}  // namespace gpucast::models
