#include "workloads/kernel_sequence.h"

#include <cmath>

namespace gpucast::wl {

void KernelSequence::add(const std::string& name, Op op) {
  Kernel k;
  k.name = prefix_ + name;
  // Names stay unique when a scope repeats a kernel (recomputed forwards).
  if (!names_.insert(k.name).second) {
    k.name += "#" + std::to_string(kernels_.size());
    names_.insert(k.name);
  }
  k.op = std::move(op);
  kernels_.push_back(std::move(k));
}

std::string KernelSequence::add_on(const std::string& name, Op op, int stream,
                                   std::vector<std::string> after) {
  add(name, std::move(op));
  kernels_.back().stream = stream;
  kernels_.back().after = std::move(after);
  return kernels_.back().name;
}

void KernelSequence::gemm(const std::string& name, double m, double n, double k, DataType t, double batch,
                          GemmLayout layout) {
  add(name, GemmOp{Count(std::llround(m)), Count(std::llround(n)), Count(std::llround(k)),
                   Count(std::llround(batch)), t, t, layout == GemmLayout::a_transposed,
                   layout == GemmLayout::b_transposed});
}

void KernelSequence::pointwise(const std::string& name, double elements, DataType t, int inputs, double flops,
                               bool contiguous, int outputs) {
  ElementwiseOp e;
  e.elements = Count(std::llround(elements));
  e.dtype = e.out_dtype = t;
  e.inputs = inputs;
  e.outputs = outputs;
  e.flops_per_element = flops;
  e.contiguous = contiguous;
  add(name, e);
}

void KernelSequence::norm(const std::string& name, double rows, double hidden, DataType t, bool rms) {
  add(name, RowOp{rms ? RowOpKind::rmsnorm : RowOpKind::layernorm, Count(std::llround(rows)),
                  Count(std::llround(hidden)), t});
}

}  // namespace gpucast::wl
