#pragma once
// Builds attention ops for tests with round defaults, so a test names only what it is about:
// attention_builder{}.seq(4096).head_dim(128).causal().build().
// Defaults: batch 1, 16 heads (as many KV heads unless kv_heads() sets fewer), 512 query and key
// positions, head dimension 64, not causal, bf16, forward, the backend PyTorch would pick.
#include <optional>

#include "workloads/ops/attention.h"

namespace gpucast::test {

class attention_builder {
 public:
  attention_builder& batch(wl::Count b) { return op_.batch = b, *this; }
  attention_builder& heads(wl::Count h) { return op_.heads = h, *this; }
  attention_builder& kv_heads(wl::Count h) { return kv_heads_ = h, *this; }
  attention_builder& seq(wl::Count s) { return op_.seq_q = op_.seq_kv = s, *this; }
  attention_builder& seq_q(wl::Count s) { return op_.seq_q = s, *this; }
  attention_builder& seq_kv(wl::Count s) { return op_.seq_kv = s, *this; }
  attention_builder& head_dim(wl::Count d) { return op_.head_dim = d, *this; }
  attention_builder& causal(bool on = true) { return op_.causal = on, *this; }
  attention_builder& dtype(DataType t) { return op_.dtype = t, *this; }
  attention_builder& backward(bool on = true) { return op_.backward = on, *this; }
  attention_builder& backend(wl::AttentionBackend b) { return op_.backend = b, *this; }
  [[nodiscard]] wl::AttentionOp build() const {
    wl::AttentionOp op = op_;
    op.kv_heads = kv_heads_.value_or(op.heads);
    return op;
  }

 private:
  wl::AttentionOp op_ = defaults();
  std::optional<wl::Count> kv_heads_;
  static wl::AttentionOp defaults() {
    wl::AttentionOp op;
    op.batch = 1;
    op.heads = 16;
    op.seq_q = op.seq_kv = 512;
    op.head_dim = 64;
    return op;
  }
};

}  // namespace gpucast::test
