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
  // Inputs read across their contiguous dimension (a transpose, x.t().contiguous()): neighbouring
  // threads load elements a row apart, one 32-byte sector each. Implies a strided kernel.
  int transposed_inputs = 0;
  // Inputs read through a broadcast (a smaller tensor expanded: `x * rstd` with rstd [rows, 1], a
  // weight [cols] over [rows, cols]): they force PyTorch's strided kernel, which computes and loads
  // their element per output element, but their bytes come from the L2 (not counted in `inputs`).
  int broadcast_inputs = 0;
  // Inputs of different types (autocast's fp32 residual plus a bf16 branch): PyTorch computes in the
  // result type and converts each element as it loads it, through the dynamic cast of its unrolled
  // kernel, as for a cast. `dtype` is then the widest input's type.
  bool mixed_types = false;
  // The strided kernel's index dimensions after PyTorch's TensorIterator drops size-1 dimensions and
  // merges those every operand walks contiguously (coalesce_dimensions): its OffsetCalculator divides
  // the linear index once per dimension. 0: not known. Set from a trace's strides; the strided kernel's
  // instruction count follows it (models/elementwise_model.cpp).
  int index_dims = 0;
  // Every parameter, once: equality and hashing (sim/op_cache_key.h) read this list.
  [[nodiscard]] auto fields() const {
    return std::tie(elements, dtype, out_dtype, inputs, outputs, flops_per_element, contiguous,
                    transposed_inputs, broadcast_inputs, mixed_types, index_dims);
  }
};
GPUCAST_OP_FAMILY(ElementwiseOp);

}  // namespace gpucast::wl
