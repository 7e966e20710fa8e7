#include "workloads/trace/autograd_sum_to.h"

#include <string_view>

#include "workloads/op_schema.h"
#include "workloads/trace/op_recognition.h"

namespace gpucast::trace {
namespace {

constexpr std::string_view kNodeSpanPrefix = "autograd::engine::evaluate_function: ";

// Whether every tensor argument of `op` (a list, a 0-dim scalar and a non-tensor aside) has `n`
// elements, and there is at least one.
bool inputs_all_of_size(const CpuOp& op, wl::Count n) {
  bool any = false;
  for (const auto& in : op.inputs) {
    if (in.is_list || in.shapes.size() != 1 || in.shapes.front().empty()) continue;
    if (numel(in.shapes.front()) != n) return false;
    any = true;
  }
  return any;
}

// The backward node span a sum_to belongs to: its parent, when that is the engine's per-node span.
const CpuOp* sum_to_node(const KinetoTrace& t, const CpuOp& op) {
  if (op.name != "aten::sum" || op.parent < 0 || op.inputs.empty() || op.inputs.front().shapes.size() != 1)
    return nullptr;
  const CpuOp& parent = t.cpu_ops[size_t(op.parent)];
  return parent.name.compare(0, kNodeSpanPrefix.size(), kNodeSpanPrefix) == 0 ? &parent : nullptr;
}

}  // namespace

void mark_sum_to_producers(const KinetoTrace& t, const std::vector<const CpuOp*>& op_of,
                           std::vector<wl::Kernel>& kernels) {
  for (size_t i = 0; i < kernels.size() && i < op_of.size(); ++i) {
    if (op_of[i] == nullptr) continue;
    const CpuOp* node = sum_to_node(t, *op_of[i]);
    if (node == nullptr) continue;
    const wl::Count n = numel(op_of[i]->inputs.front().shapes.front());
    int back = 0;
    for (size_t j = i; j-- > 0;) {
      if (kernels[j].stream != kernels[i].stream) continue;
      ++back;
      const CpuOp* producer = op_of[j];
      // Left the node: an earlier kernel than any of its own.
      if (producer == nullptr || producer->ts_us < node->ts_us || back > wl::kMaxInputFromBack) break;
      if (producer != op_of[i] && inputs_all_of_size(*producer, n)) {
        kernels[i].input_from_back = back;
        break;
      }
    }
  }
}

}  // namespace gpucast::trace
