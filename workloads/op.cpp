#include "workloads/op.h"

#include <type_traits>

namespace gpucast::wl {
namespace {
// Calls `F` with the op's family: OpFamily<T> for the alternative the op holds.
template <class F>
decltype(auto) with_family(const Op& op, F&& f) {
  return std::visit(
      [&](const auto& o) -> decltype(auto) { return f(OpFamily<std::decay_t<decltype(o)>>{}, o); }, op);
}
}  // namespace

std::string op_name(const Op& op) {
  return with_family(op, [](auto family, const auto& o) { return decltype(family)::name(o); });
}
std::string op_shape(const Op& op) {
  return with_family(op, [](auto family, const auto& o) { return decltype(family)::shape(o); });
}
double op_flops(const Op& op) {
  return with_family(op, [](auto family, const auto& o) { return decltype(family)::flops(o); });
}
double op_min_bytes(const Op& op) {
  return with_family(op, [](auto family, const auto& o) { return decltype(family)::min_bytes(o); });
}
DataType op_compute_dtype(const Op& op) {
  return with_family(op, [](auto family, const auto& o) { return decltype(family)::compute_dtype(o); });
}

}  // namespace gpucast::wl
