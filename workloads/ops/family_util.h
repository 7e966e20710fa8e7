#pragma once
// Shorthands the op family files share (not part of any interface).
#include <sstream>
#include <string>

#include "workloads/op_schema.h"

namespace gpucast::wl {
namespace family {
using P = ParamKind;
inline constexpr bool kReq = true;
inline constexpr bool kOpt = false;
inline ParamValue integer(Count v) {
  return ParamValue{static_cast<std::int64_t>(v)};
}
inline ParamValue dtype_value(DataType t) {
  return ParamValue{std::string(to_string(t))};
}
inline std::string dt(DataType t) {
  return std::string(to_string(t));
}
}  // namespace family
}  // namespace gpucast::wl
