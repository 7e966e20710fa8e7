#pragma once
// Builds row-wise ops (reductions, softmax, layer and RMS norm, batch norm) for tests, so a test names
// only what it is about: row_builder{}.rmsnorm().rows(1).cols(4096).dtype(DataType::fp32).backward().
// Defaults: a layer norm forward over 4096 rows of 4096 bf16 columns.
#include "workloads/ops/row.h"

namespace gpucast::test {

class row_builder {
 public:
  row_builder& kind(wl::RowOpKind k) { return op_.kind = k, *this; }
  row_builder& layernorm() { return kind(wl::RowOpKind::layernorm); }
  row_builder& rmsnorm() { return kind(wl::RowOpKind::rmsnorm); }
  row_builder& batchnorm() { return kind(wl::RowOpKind::batchnorm); }
  row_builder& softmax() { return kind(wl::RowOpKind::softmax); }
  row_builder& reduce() { return kind(wl::RowOpKind::reduce); }
  row_builder& rows(wl::Count n) { return op_.rows = n, *this; }
  row_builder& cols(wl::Count n) { return op_.cols = n, *this; }
  row_builder& dtype(DataType t) { return op_.dtype = t, *this; }
  row_builder& backward(bool on = true) { return op_.backward = on, *this; }
  row_builder& training(bool on = true) { return op_.training = on, *this; }
  [[nodiscard]] wl::RowOp build() const { return op_; }

 private:
  wl::RowOp op_ = defaults();
  static wl::RowOp defaults() {
    wl::RowOp op;
    op.kind = wl::RowOpKind::layernorm;
    op.rows = 4096;
    op.cols = 4096;
    op.dtype = DataType::bf16;
    return op;
  }
};

// A 16-bit batch norm over `positions` x `channels` (the channels-last training kernels' op).
inline wl::RowOp batch_norm_op(wl::Count positions, wl::Count channels, bool training,
                               bool backward = false) {
  return row_builder{}
      .batchnorm()
      .rows(positions)
      .cols(channels)
      .training(training)
      .backward(backward)
      .build();
}

// A softmax over `rows` x `cols` of type `t`.
inline wl::RowOp softmax_op(wl::Count rows, wl::Count cols, DataType t) {
  return row_builder{}.softmax().rows(rows).cols(cols).dtype(t).build();
}

}  // namespace gpucast::test
