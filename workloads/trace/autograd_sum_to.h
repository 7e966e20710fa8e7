#pragma once
// Which kernel wrote the tensor an autograd sum_to reduces. The autograd engine reduces a node's
// gradient to its input's shape (at::sum_to, an aten::sum with keepdim) after the node has computed
// all its gradients (validate_outputs in evaluate_function: library fact, PyTorch's
// torch/csrc/autograd/engine.cpp), so the sum often does not read the kernel just before it:
// MulBackward0 of `h * rstd` (h full, rstd broadcast) computes grad * h (full x full, the gradient
// of rstd, to be reduced), then grad * rstd (the gradient of h), then the sum over the last dim
// (validation/runs/h100-sxm/trace-llama125m-train.json.gz: `mul`, `mul`, `sum` under
// "autograd::engine::evaluate_function: MulBackward0").
#include <vector>

#include "workloads/trace/kineto_trace.h"
#include "workloads/workload.h"

namespace gpucast::trace {

// Sets wl::Kernel::input_from_back on each kernel that is a sum_to of a backward node: the node's
// latest kernel on the same stream whose tensor inputs all have the sum's input size (a gradient
// computed without broadcasting, the one that needs reducing), counted back from the sum. `op_of`
// holds, per kernel, the CPU op that launched it (nullptr when none); kernels are in issue order.
void mark_sum_to_producers(const KinetoTrace& t, const std::vector<const CpuOp*>& op_of,
                           std::vector<wl::Kernel>& kernels);

}  // namespace gpucast::trace
