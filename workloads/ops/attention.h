#pragma once
// The attention op family: fused scaled-dot-product attention, forward or backward, with the
// kernel family PyTorch's SDPA would run. Model: models/attention_model.h.
#include <string_view>
#include <tuple>

#include "workloads/op_schema.h"

namespace gpucast::wl {

// Which kernel family runs attention, as PyTorch's SDPA backends name them. `automatic` follows
// PyTorch's dispatch for the GPU's architecture (models/attention_model.cpp says which it picks).
enum class AttentionBackend { automatic, flash2, flash3, cudnn, efficient, math };
[[nodiscard]] std::string_view attention_backend_name(AttentionBackend b);

struct AttentionOp {  // fused (flash-style) scaled-dot-product attention, forward or backward
  Count batch = 0, heads = 0, kv_heads = 0, seq_q = 0, seq_kv = 0, head_dim = 0;
  bool causal = false;
  DataType dtype = DataType::bf16;
  bool backward = false;  // dQ, dK, dV from dO (recomputes the scores)
  AttentionBackend backend = AttentionBackend::automatic;
  // Every parameter, once: equality and hashing (sim/op_cache_key.h) read this list.
  [[nodiscard]] auto fields() const {
    return std::tie(batch, heads, kv_heads, seq_q, seq_kv, head_dim, causal, dtype, backward, backend);
  }
};
GPUCAST_OP_FAMILY(AttentionOp);

}  // namespace gpucast::wl
