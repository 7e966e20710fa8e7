#pragma once
// Pointwise ops (add, mul, activations, casts) as PyTorch runs them: a vectorized kernel when input
// and output types match, an unrolled scalar kernel with per-element index math for casts.
#include "models/op_model.h"

namespace gpucast::models {

// PyTorch's strided TensorIterator kernel (CUDALoops.cuh's legacy elementwise_kernel, and the
// generic gather's _scatter_gather_elementwise_kernel, which is built the same way): every operand's
// offset through its OffsetCalculator per element, each operand loaded or stored on its own, a
// thread's items one after another. `operands` counts inputs, broadcast inputs, index tensors and
// outputs; `extra_instructions_per_element` the op's own arithmetic; `index_dims` the OffsetCalculator's
// dimensions (0: not known, a count per operand stands for them).
[[nodiscard]] KernelPlan strided_map_kernel(const std::string& name, double elements, double operands,
                                            double read_bytes, double write_bytes,
                                            double extra_instructions_per_element, const device::Device& gpu,
                                            double elements_per_thread, int index_dims = 0);

class ElementwiseModel final : public OpModel {
 public:
  [[nodiscard]] std::vector<PlanOption> plan(const wl::Op& op, const device::Device& gpu) const override;
};

}  // namespace gpucast::models
