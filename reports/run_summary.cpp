#include "reports/run_summary.h"

#include <algorithm>

namespace gpucast::reports {

void set_bounds(RunSummary& s, const sim::Prediction& p) {
  s.time_us = p.total_us;
  // Kernel time by bound, scaled to the busy time, plus the host share: the step's time split.
  const auto by_bound = p.time_by_bound();
  double kernel_total = 0;
  for (const auto& [name, us] : by_bound) kernel_total += us;
  const double total = p.total_us > 0 ? p.total_us : 1;
  s.bound_share.clear();
  for (const char* name : {"compute", "memory", "latency", "launch"}) {
    const auto it = by_bound.find(name);
    const double us = it == by_bound.end() || kernel_total <= 0 ? 0 : it->second / kernel_total * p.gpu_busy_us;
    s.bound_share[name] = us / total;
  }
  s.bound_share["host"] = std::max(0.0, p.gpu_idle_us()) / total;
  double best = -1;
  for (const auto& [name, share] : s.bound_share)
    if (share > best) best = share, s.bound = name;
}

}  // namespace gpucast::reports
