#include "workloads/host_work.h"

#include <type_traits>

namespace gpucast::wl {

std::string_view host_category_name(HostCategory c) {
  switch (c) {
    case HostCategory::module_call:
      return "python module";
    case HostCategory::op_dispatch:
      return "aten dispatch";
    case HostCategory::autograd_node:
      return "autograd";
    case HostCategory::grad_record:
      return "grad recording";
    case HostCategory::launch:
      return "launch";
    case HostCategory::library_call:
      return "library";
    case HostCategory::optimizer_step:
      return "optimizer step";
    case HostCategory::optimizer_param:
      return "optimizer params";
    case HostCategory::foreach_tensor:
      return "foreach lists";
    case HostCategory::fused_tensor:
      return "fused optimizer";
    case HostCategory::sync:
      return "sync";
    case HostCategory::graph_replay:
      return "graph replay";
    case HostCategory::graph_kernel:
      return "graph nodes";
    case HostCategory::compile_guard:
      return "compile guards";
    case HostCategory::compile_launch:
      return "compiled launch";
    case HostCategory::fsdp_group:
      return "fsdp hooks";
  }
  return "?";
}

std::string_view host_category_key(HostCategory c) {
  switch (c) {
    case HostCategory::module_call:
      return "framework.module_call_us";
    case HostCategory::op_dispatch:
      return "framework.op_dispatch_us";
    case HostCategory::autograd_node:
      return "framework.autograd_node_us";
    case HostCategory::grad_record:
      return "framework.grad_record_us";
    case HostCategory::launch:
      return "cuda.launch_us";
    case HostCategory::library_call:
      return "library.call_us";
    case HostCategory::optimizer_step:
      return "optimizer.step_us";
    case HostCategory::optimizer_param:
      return "optimizer.param_us";
    case HostCategory::foreach_tensor:
      return "optimizer.foreach_tensor_us";
    case HostCategory::fused_tensor:
      return "optimizer.fused_tensor_us";
    case HostCategory::sync:
      return "sync.item_us";
    case HostCategory::graph_replay:
      return "graph.replay_us";
    case HostCategory::graph_kernel:
      return "graph.per_kernel_us";
    case HostCategory::compile_guard:
      return "compile.guard_us";
    case HostCategory::compile_launch:
      return "compile.launch_us";
    case HostCategory::fsdp_group:
      return "framework.fsdp_group_us";
  }
  return "";
}

std::string_view host_category_id(HostCategory c) {
  static constexpr std::array<std::string_view, kHostCategories> kIds{
      "module_call",    "op_dispatch",     "autograd_node",  "grad_record",  "launch", "library_call",
      "optimizer_step", "optimizer_param", "foreach_tensor", "fused_tensor", "sync",   "graph_replay",
      "graph_kernel",   "compile_guard",   "compile_launch", "fsdp_group"};
  return kIds[size_t(c)];
}

std::optional<HostCategory> parse_host_category(std::string_view id) {
  for (size_t i = 0; i < kHostCategories; ++i)
    if (host_category_id(HostCategory(i)) == id) return HostCategory(i);
  return std::nullopt;
}

bool is_library_op(const Op& op) {
  return std::visit([](const auto& o) { return OpFamily<std::decay_t<decltype(o)>>::library_call(o); }, op);
}

size_t HostWork::stored() const {
  return static_cast<size_t>(__builtin_popcount(present_));
}

size_t HostWork::slot(HostCategory c) const {
  const std::uint32_t below = present_ & ((1u << size_t(c)) - 1u);
  return static_cast<size_t>(__builtin_popcount(below));
}

std::unique_ptr<double[]> HostWork::copy_counts() const {
  const size_t n = stored();
  if (n == 0) return nullptr;
  auto out = std::make_unique<double[]>(n);
  for (size_t i = 0; i < n; ++i) out[i] = counts_[i];
  return out;
}

HostWork& HostWork::set(HostCategory c, double n) {
  if (has(c)) {
    counts_[slot(c)] = n;
    return *this;
  }
  if (n == 0) return *this;  // absent reads as zero
  const size_t old_n = stored();
  const size_t at = slot(c);
  auto grown = std::make_unique<double[]>(old_n + 1);
  for (size_t i = 0; i < at; ++i) grown[i] = counts_[i];
  grown[at] = n;
  for (size_t i = at; i < old_n; ++i) grown[i + 1] = counts_[i];
  counts_ = std::move(grown);
  present_ |= 1u << size_t(c);
  return *this;
}

HostWork default_host_work(const Op& op) {
  HostWork h;
  h.add(HostCategory::op_dispatch).add(HostCategory::launch);
  if (is_library_op(op)) h.add(HostCategory::library_call);
  return h;
}

}  // namespace gpucast::wl
