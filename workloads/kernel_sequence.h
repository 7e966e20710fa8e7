#pragma once
// Appends kernels in program order with scoped names ("l3.qkv"), for the model generators.
#include <string>
#include <unordered_set>
#include <vector>

#include "workloads/op.h"
#include "workloads/workload.h"

namespace gpucast::wl {

class KernelSequence {
 public:
  void scope(std::string prefix) { prefix_ = std::move(prefix); }
  void add(const std::string& name, Op op);
  // Adds a kernel on `stream` that waits for the kernels named in `after` (full names); returns
  // its full name.
  std::string add_on(const std::string& name, Op op, int stream, std::vector<std::string> after);
  // The last kernel added also waits for `name`.
  void depend_last_on(const std::string& name) { kernels_.back().after.push_back(name); }
  // Full name of the last kernel added ("" when none).
  [[nodiscard]] std::string last_name() const {
    return kernels_.empty() ? std::string{} : kernels_.back().name;
  }
  // Common shapes.
  // A GEMM with its operands' layouts (GemmOp::transpose_a/transpose_b): nn.Linear's forward
  // x @ W^T is GemmLayout::b_transposed, its weight gradient g^T @ x a_transposed, its input
  // gradient g @ W plain.
  enum class GemmLayout { plain, a_transposed, b_transposed };
  void gemm(const std::string& name, double m, double n, double k, DataType t, double batch = 1,
            GemmLayout layout = GemmLayout::plain);
  void pointwise(const std::string& name, double elements, DataType t, int inputs = 1, double flops = 1,
                 bool contiguous = true, int outputs = 1);
  void norm(const std::string& name, double rows, double hidden, DataType t, bool rms);
  [[nodiscard]] size_t size() const { return kernels_.size(); }
  [[nodiscard]] std::vector<Kernel> take() {
    names_.clear();
    return std::move(kernels_);
  }

 private:
  std::string prefix_;
  std::vector<Kernel> kernels_;
  std::unordered_set<std::string> names_;  // kernels_' names: a repeat is found without a scan
};

}  // namespace gpucast::wl
