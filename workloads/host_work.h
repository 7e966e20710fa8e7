#pragma once
// What the host does to issue one kernel, as counts per host category: the framework calls, the
// launch and any synchronization around it. The simulator prices each count with the host
// description (hw::HostSpec); generators annotate their kernels, and a kernel that carries no
// annotation (a workload file) gets default_host_work(): one aten op and its launch (and a
// library call for GEMM, attention, convolution, norm and embedding ops).
#include <array>
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
};
inline constexpr size_t kHostCategories = 15;
[[nodiscard]] std::string_view host_category_name(HostCategory c);
// The host key that prices the category ("framework.module_call_us").
[[nodiscard]] std::string_view host_category_key(HostCategory c);
// The category's name in workload files (`host = { op_dispatch = 1, launch = 1 }`): the enum's.
[[nodiscard]] std::string_view host_category_id(HostCategory c);
[[nodiscard]] std::optional<HostCategory> parse_host_category(std::string_view id);

struct HostWork {
  std::array<double, kHostCategories> count{};
  [[nodiscard]] double& operator[](HostCategory c) { return count[size_t(c)]; }
  [[nodiscard]] double operator[](HostCategory c) const { return count[size_t(c)]; }
  [[nodiscard]] bool empty() const {
    for (double v : count)
      if (v != 0) return false;
    return true;
  }
  HostWork& add(HostCategory c, double n = 1) {
    count[size_t(c)] += n;
    return *this;
  }
  HostWork& operator+=(const HostWork& o) {
    for (size_t i = 0; i < kHostCategories; ++i) count[i] += o.count[i];
    return *this;
  }
};

// True for ops that go through a library (cuBLAS, cuDNN, SDPA) or a library-like dispatch.
[[nodiscard]] bool is_library_op(const Op& op);
// One eager aten op from Python and its launch (+ a library call where is_library_op).
[[nodiscard]] HostWork default_host_work(const Op& op);

}  // namespace gpucast::wl
