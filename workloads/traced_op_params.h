#pragma once
// The `traced` op's workload-file schema (kept beside op_params.cpp, which registers it).
#include "workloads/op_params.h"

namespace gpucast::wl {

[[nodiscard]] OpDef traced_op_def();
[[nodiscard]] TracedOp build_traced_op(const ParamMap& params, const std::string& kernel, const SourceLocation& where);
[[nodiscard]] std::vector<std::pair<std::string, ParamValue>> traced_op_params(const TracedOp& op);

}  // namespace gpucast::wl
