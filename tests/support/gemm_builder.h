#pragma once
// Builds GEMMs for tests with round defaults, so a test names only what it is about:
// gemm_builder{}.mnk(4096, 4096, 127).dtype(DataType::fp16).transpose_b().build(), or the shorthand
// gemm_op(m, n, k, dtype) for the plain row-major case.
// Defaults: 4096 x 4096 x 4096, bf16 in and out, no transposes, batch 1.
#include "models/gemm_model.h"
#include "workloads/ops/gemm.h"

namespace gpucast::test {

class gemm_builder {
 public:
  gemm_builder& mnk(wl::Count m, wl::Count n, wl::Count k) { return op_.m = m, op_.n = n, op_.k = k, *this; }
  gemm_builder& square(wl::Count size) { return mnk(size, size, size); }
  // The inputs' type; the output takes it too unless out_dtype() follows.
  gemm_builder& dtype(DataType t) { return op_.dtype = op_.out_dtype = t, *this; }
  gemm_builder& out_dtype(DataType t) { return op_.out_dtype = t, *this; }
  gemm_builder& transpose_a(bool on = true) { return op_.transpose_a = on, *this; }
  gemm_builder& transpose_b(bool on = true) { return op_.transpose_b = on, *this; }
  [[nodiscard]] wl::GemmOp build() const { return op_; }

 private:
  wl::GemmOp op_ = defaults();
  static wl::GemmOp defaults() {
    wl::GemmOp op;
    op.m = op.n = op.k = 4096;
    op.dtype = op.out_dtype = DataType::bf16;
    return op;
  }
};

// A row-major m x n x k GEMM of one type.
[[nodiscard]] inline wl::GemmOp gemm_op(wl::Count m, wl::Count n, wl::Count k, DataType t = DataType::bf16) {
  return gemm_builder{}.mnk(m, n, k).dtype(t).build();
}

// The GEMM model's own shape (models::GemmShape) of a row-major m x n x k GEMM of one type, for
// tests that call models::gemm_options directly; a test sets the flags it is about on the result.
[[nodiscard]] inline models::GemmShape gemm_shape(double m, double n, double k, DataType t = DataType::bf16) {
  models::GemmShape g;
  g.m = m;
  g.n = n;
  g.k = k;
  g.in = g.out = t;
  return g;
}

}  // namespace gpucast::test
