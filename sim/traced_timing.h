#pragma once
// Standalone timing of a `traced` op (workloads/traced_op.h): its measured time scaled to this
// GPU by its bound class, one kernel launch per traced kernel.
#include "sim/op_predictor.h"
#include "workloads/traced_op.h"

namespace gpucast::sim {

[[nodiscard]] OpTiming traced_timing(const wl::TracedOp& op, const hw::GpuSpec& gpu, const GpuRates& rates);

}  // namespace gpucast::sim
