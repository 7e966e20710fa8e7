#pragma once
// The gemm op family: C[m,n] = A[m,k] B[k,n], batched. Model: models/gemm_model.h.
#include <tuple>

#include "workloads/op_schema.h"

namespace gpucast::wl {

struct GemmOp {  // C[m,n] = A[m,k] B[k,n], `batch` independent products
  Count m = 0, n = 0, k = 0, batch = 1;
  DataType dtype = DataType::bf16;
  DataType out_dtype = DataType::bf16;
  // Operand layouts (row-major C): A stored transposed (as A^T, k x m: its leading dimension is m)
  // and B stored transposed (n x k: its leading dimension is k). nn.Linear's forward x @ W^T has
  // transpose_b, its weight gradient g^T @ x transpose_a, its input gradient g @ W neither.
  bool transpose_a = false;
  bool transpose_b = false;
  // Every parameter, once: equality and hashing (sim/op_cache_key.h) read this list.
  [[nodiscard]] auto fields() const {
    return std::tie(m, n, k, batch, dtype, out_dtype, transpose_a, transpose_b);
  }
};
GPUCAST_OP_FAMILY(GemmOp);

}  // namespace gpucast::wl
