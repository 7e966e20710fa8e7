#pragma once
// The elementwise op family: a pointwise map over tensors of equal size. Model:
// models/elementwise_model.h.
#include <tuple>

#include "workloads/op_schema.h"

namespace gpucast::wl {

struct ElementwiseOp {
  Count elements = 0;
  DataType dtype = DataType::bf16;
  DataType out_dtype = DataType::bf16;
  int inputs = 1, outputs = 1;
  double flops_per_element = 1;
  bool contiguous = true;  // false: strided views (transposes, slices), PyTorch's non-vectorized kernel
  // Every parameter, once: equality and hashing (sim/op_cache_key.h) read this list.
  [[nodiscard]] auto fields() const {
    return std::tie(elements, dtype, out_dtype, inputs, outputs, flops_per_element, contiguous);
  }
};
GPUCAST_OP_FAMILY(ElementwiseOp);

}  // namespace gpucast::wl
