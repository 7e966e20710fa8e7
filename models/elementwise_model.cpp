#include "models/elementwise_model.h"

#include <algorithm>

#include "models/helper_kernels.h"

namespace gpucast::models {
namespace {
// SIMT lane-instructions per element beyond its arithmetic: loads, stores, conversions, loop.
constexpr double kVectorizedOverhead = 4;
// A FLOP of a pointwise function costs about this many lane-instructions (transcendentals are
// polynomial sequences; bf16 inputs convert to fp32 and back).
constexpr double kInstructionsPerFlop = 3;
// The unrolled (non-vectorized) path PyTorch takes for casts computes offsets per element through
// its offset calculator: about this many lane-instructions per element.
constexpr double kUnrolledInstructions = 90;
}  // namespace

std::vector<PlanOption> ElementwiseModel::plan(const wl::Op& op, const device::Device& gpu) const {
  const auto& e = std::get<wl::ElementwiseOp>(op);
  const double n = static_cast<double>(e.elements);
  const double read = n * e.inputs * bytes_per_element(e.dtype);
  const double write = n * e.outputs * bytes_per_element(e.out_dtype);
  const bool cast = e.out_dtype != e.dtype;
  PlanOption option;
  if (cast || !e.contiguous) {
    option.name = cast ? "unrolled elementwise (cast)" : "elementwise on strided views";
    option.kernels.push_back(streaming_kernel(option.name, n, read, write,
                                              kUnrolledInstructions + kInstructionsPerFlop * e.flops_per_element,
                                              gpu, 4));
  } else {
    option.name = "vectorized elementwise";
    const double per_thread = std::max(1.0, 16.0 / bytes_per_element(e.dtype));
    option.kernels.push_back(streaming_kernel(option.name, n, read, write,
                                              kVectorizedOverhead + kInstructionsPerFlop * e.flops_per_element, gpu,
                                              per_thread));
  }
  return {option};
}

}  // namespace gpucast::models
