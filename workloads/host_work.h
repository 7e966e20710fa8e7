#pragma once
// What the host does to issue one kernel, as counts per host category: the framework calls, the
// launch and any synchronization around it. The simulator prices each count with the host
// description (hw::HostSpec); generators annotate their kernels, and a kernel that carries no
// annotation (a workload file) gets default_host_work(): one aten op and its launch (and a
// library call for GEMM, attention, convolution, norm and embedding ops).
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>

#include "workloads/op.h"

namespace gpucast::wl {

// Host categories, in report order.
enum class HostCategory {
  module_call,      // nn.Module.__call__
  op_dispatch,      // aten op from Python (also ops that launch nothing: views, reshapes)
  autograd_node,    // one backward node in the autograd engine
  grad_record,      // one forward aten op run with grad enabled: its autograd node and saved tensors
  launch,           // eager kernel launch
  library_call,     // cuBLAS / cuDNN / SDPA setup
  optimizer_step,   // one optimizer.step() call
  optimizer_param,  // one parameter tensor gathered by optimizer.step()
  foreach_tensor,   // one tensor of a foreach op
  fused_tensor,     // one tensor of a fused optimizer step
  sync,             // .item() / .cpu(): the call's own host time (the wait is the timeline's)
  graph_replay,     // one CUDA graph replay
  graph_kernel,     // one kernel node of a replay
  compile_guard,    // one torch.compile'd region call
  compile_launch,   // one kernel launched from compiled code
  fsdp_group,       // one FSDP2 group's hooks in one step (fractions: each hook's share)
};
inline constexpr size_t kHostCategories = 16;
[[nodiscard]] std::string_view host_category_name(HostCategory c);
// The host key that prices the category ("framework.module_call_us").
[[nodiscard]] std::string_view host_category_key(HostCategory c);
// The category's name in workload files (`host = { op_dispatch = 1, launch = 1 }`): the enum's.
[[nodiscard]] std::string_view host_category_id(HostCategory c);
[[nodiscard]] std::optional<HostCategory> parse_host_category(std::string_view id);

// Counts per host category. Most kernels carry none (the default applies) or a few, so only the
// nonzero counts are stored, on the heap, in category order (16 bytes per kernel instead of 112:
// a million-kernel workload carries one per kernel).
class HostWork {
 public:
  HostWork() = default;
  HostWork(const HostWork& o) : present_(o.present_), counts_(o.copy_counts()) {}
  HostWork(HostWork&&) noexcept = default;
  HostWork& operator=(const HostWork& o) {
    if (this != &o) {
      counts_ = o.copy_counts();
      present_ = o.present_;
    }
    return *this;
  }
  HostWork& operator=(HostWork&&) noexcept = default;

  [[nodiscard]] double operator[](HostCategory c) const {
    return has(c) ? counts_[slot(c)] : 0.0;
  }
  [[nodiscard]] bool empty() const {
    for (size_t i = 0, n = stored(); i < n; ++i)
      if (counts_[i] != 0) return false;
    return true;
  }
  // Same count in every category (an absent count equals a stored zero).
  [[nodiscard]] bool operator==(const HostWork& o) const {
    for (size_t i = 0; i < kHostCategories; ++i)
      if ((*this)[HostCategory(i)] != o[HostCategory(i)]) return false;
    return true;
  }
  [[nodiscard]] bool operator!=(const HostWork& o) const { return !(*this == o); }
  HostWork& set(HostCategory c, double n);
  HostWork& add(HostCategory c, double n = 1) { return set(c, (*this)[c] + n); }
  HostWork& operator+=(const HostWork& o) {
    for (size_t i = 0; i < kHostCategories; ++i)
      if (o.has(HostCategory(i))) add(HostCategory(i), o[HostCategory(i)]);
    return *this;
  }

 private:
  [[nodiscard]] bool has(HostCategory c) const { return (present_ >> size_t(c)) & 1u; }
  [[nodiscard]] size_t stored() const;                 // counts held
  [[nodiscard]] size_t slot(HostCategory c) const;     // index of c's count among them
  [[nodiscard]] std::unique_ptr<double[]> copy_counts() const;
  std::uint32_t present_ = 0;         // bit c: category c has a stored count
  std::unique_ptr<double[]> counts_;  // one per set bit, in category order
};

// True for ops that go through a library (cuBLAS, cuDNN, SDPA) or a library-like dispatch.
[[nodiscard]] bool is_library_op(const Op& op);
// One eager aten op from Python and its launch (+ a library call where is_library_op).
[[nodiscard]] HostWork default_host_work(const Op& op);

}  // namespace gpucast::wl
