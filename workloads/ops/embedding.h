#pragma once
// The embedding op family: a row gather from a table (and its backward). Model:
// models/memory_op_models.h.
#include <tuple>

#include "workloads/op_schema.h"

namespace gpucast::wl {

struct EmbeddingOp {  // row gather: out[t] = table[index[t]]
  Count vocab = 0, dim = 0, tokens = 0;
  DataType dtype = DataType::bf16;
  bool backward = false;  // embedding_dense_backward: the table's gradient from the gathered rows' gradient
  // Every parameter, once: equality and hashing (sim/op_cache_key.h) read this list.
  [[nodiscard]] auto fields() const { return std::tie(vocab, dim, tokens, dtype, backward); }
};
GPUCAST_OP_FAMILY(EmbeddingOp);

}  // namespace gpucast::wl
