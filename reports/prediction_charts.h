#pragma once
// The charts of a prediction: the roofline (every kernel under the GPU's compute roofs and its DRAM
// and L2 bandwidth ceilings), where the time goes (by op family and by bound) and the timeline of
// kernels per stream with the host's issue times.
#include <vector>

#include "hardware/gpu_spec.h"
#include "reports/report.h"
#include "sim/simulator.h"

namespace gpucast::reports {

// `p` may be null for a GPU alone (its roofs and ceilings).
[[nodiscard]] Chart roofline_chart(const hw::GpuSpec& gpu, const sim::Prediction* p, const std::string& id);
[[nodiscard]] Chart time_by_op_chart(const sim::Prediction& p, const std::string& id);
[[nodiscard]] Chart time_by_bound_chart(const sim::Prediction& p, const std::string& id);
[[nodiscard]] Chart timeline_chart(const sim::Prediction& p, const std::string& id);

}  // namespace gpucast::reports
