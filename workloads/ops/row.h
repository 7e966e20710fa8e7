#pragma once
// The row op family: reduce and softmax over the last dimension, layer and RMS normalization over
// the hidden size, forward (and the norms' backward), and batch normalization of a channels-last
// activation (rows = N*H*W positions, cols = channels): inference, training, and its backward. Five names in
// files, one struct: `kind` says which. Model: models/row_models.h.
#include <string_view>
#include <tuple>

#include "workloads/op_schema.h"

namespace gpucast::wl {

enum class RowOpKind { reduce, softmax, layernorm, rmsnorm, batchnorm };
[[nodiscard]] std::string_view row_op_name(RowOpKind kind);

struct RowOp {  // row-wise ops: reduce (over cols), softmax, layernorm and rmsnorm (over hidden), batchnorm
  RowOpKind kind = RowOpKind::reduce;
  Count rows = 0, cols = 0;  // cols = hidden for the norms, channels for batchnorm
  DataType dtype = DataType::bf16;
  bool backward = false;  // norms and batchnorm: dX, dweight (and dbias) from dY, as autograd runs them
  bool training = false;  // batchnorm only: batch statistics (training mode); a backward is always training
  // Every parameter, once: equality and hashing (sim/op_cache_key.h) read this list.
  [[nodiscard]] auto fields() const { return std::tie(kind, rows, cols, dtype, backward, training); }
  [[nodiscard]] bool is_norm() const { return kind == RowOpKind::layernorm || kind == RowOpKind::rmsnorm; }
};
GPUCAST_OP_FAMILY(RowOp);

}  // namespace gpucast::wl
