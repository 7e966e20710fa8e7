#pragma once
// The `traced` op's workload-file schema (registered by workloads/ops/traced.cpp).
#include "workloads/op_schema.h"
#include "workloads/traced_op.h"

namespace gpucast::wl {

[[nodiscard]] OpDef traced_op_def();
[[nodiscard]] TracedOp build_traced_op(const ParamReader& params);
[[nodiscard]] ParamList traced_op_params(const TracedOp& op);

}  // namespace gpucast::wl
