#pragma once
// The gemm op family: C[m,n] = A[m,k] B[k,n], batched. Model: models/gemm_model.h.
#include <tuple>

#include "workloads/op_schema.h"

namespace gpucast::wl {

struct GemmOp {  // C[m,n] = A[m,k] B[k,n], `batch` independent products
  Count m = 0, n = 0, k = 0, batch = 1;
  DataType dtype = DataType::bf16;
  DataType out_dtype = DataType::bf16;
  // Every parameter, once: equality and hashing (sim/op_cache_key.h) read this list.
  [[nodiscard]] auto fields() const { return std::tie(m, n, k, batch, dtype, out_dtype); }
};
GPUCAST_OP_FAMILY(GemmOp);

}  // namespace gpucast::wl
