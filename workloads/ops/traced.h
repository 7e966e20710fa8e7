#pragma once
// The traced op family: a profiler-trace kernel no op model re-predicts (struct in
// workloads/traced_op.h, file schema in workloads/traced_op_params.cpp). Timed by
// sim/traced_timing.h, which scales its measured time by the mechanism that bounds it.
#include "workloads/op_schema.h"
#include "workloads/traced_op.h"

namespace gpucast::wl {

GPUCAST_OP_FAMILY(TracedOp);

}  // namespace gpucast::wl
