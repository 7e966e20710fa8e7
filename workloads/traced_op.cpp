#include "workloads/traced_op.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace gpucast::wl {

std::string_view traced_bound_name(TracedBound b) {
  switch (b) {
    case TracedBound::compute: return "compute";
    case TracedBound::latency: return "latency";
    case TracedBound::launch: return "launch";
    default: return "memory";
  }
}

std::string traced_shape(const TracedOp& op) {
  std::ostringstream s;
  s.precision(4);
  s << op.measured_us << " us on " << (op.source_gpu.empty() ? "source" : op.source_gpu) << ", "
    << traced_bound_name(op.bound) << "-bound";
  if (op.bound == TracedBound::compute)
    s << " (" << (op.pipe == TracedPipe::tensor ? std::string(to_string(op.dtype)) + " tensor" : "fp32") << ")";
  if (op.kernels > 1) s << ", " << op.kernels << " kernels";
  return s.str();
}

}  // namespace gpucast::wl
