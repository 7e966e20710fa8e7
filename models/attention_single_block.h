#pragma once
// Which kernel FlashAttention-2 runs for a forward of one query row (issue 14).
//
// FlashAttention-2's forward (PyTorch's mha_fwd, which scaled_dot_product_attention calls) runs its
// split-KV decode kernel only when it splits the keys into several chunks; over at most one key
// block (a one-token forward without a KV cache: seq_q = seq_kv = 1) it runs its ordinary forward
// kernel, one query tile per (batch, head), and PyTorch charges no decode-path host work. Seen in
// every one-token forward profiled on the H100 and H200 (pytorch_flash::flash_fwd_kernel, 5-15 us
// a call; validation/runs/<gpu>/fresh/breakdown/breakdown.json). With a KV cache (many keys) the
// split-KV decode path stays.
#include "workloads/ops/attention.h"

namespace gpucast::models {

// Keys FlashAttention-2's forward handles in one block without splitting (its smallest kBlockN).
inline constexpr double kFlash2SingleBlockKeys = 128;

// True when `a`, resolved to `backend`, is a FlashAttention-2 forward of query rows few enough for
// the decode path but over a single key block: it runs the ordinary forward (prefill) kernel.
[[nodiscard]] inline bool flash2_single_block_forward(const wl::AttentionOp& a,
                                                      wl::AttentionBackend backend) {
  return backend == wl::AttentionBackend::flash2 && !a.backward && double(a.seq_kv) <= kFlash2SingleBlockKeys;
}

}  // namespace gpucast::models
