#include "workloads/ops/traced.h"

#include "workloads/traced_op_params.h"

namespace gpucast::wl {

std::vector<OpDef> OpFamily<TracedOp>::defs() {
  return {traced_op_def()};
}

TracedOp OpFamily<TracedOp>::build(std::string_view, const ParamReader& p) {
  return build_traced_op(p);
}

ParamList OpFamily<TracedOp>::params(const TracedOp& t) {
  return traced_op_params(t);
}

std::string OpFamily<TracedOp>::name(const TracedOp&) {
  return "traced";
}

std::string OpFamily<TracedOp>::shape(const TracedOp& t) {
  return traced_shape(t);
}

double OpFamily<TracedOp>::flops(const TracedOp& t) {
  return t.flops;
}

double OpFamily<TracedOp>::min_bytes(const TracedOp& t) {
  return t.bytes;
}

DataType OpFamily<TracedOp>::compute_dtype(const TracedOp& t) {
  return t.dtype;
}

// Traced kernels replay the host time the trace recorded, not a category's.
bool OpFamily<TracedOp>::library_call(const TracedOp&) {
  return false;
}

}  // namespace gpucast::wl
