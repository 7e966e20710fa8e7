#include "reports/run_summary.h"

#include <algorithm>

namespace gpucast::reports {

void set_bounds(RunSummary& s, const sim::Prediction& p) {
  s.time_us = p.total_us;
  // The step's time split by bound (the timeline's attribution, host = GPU idle): shares sum to 1.
  const auto by_bound = p.time_by_bound();
  const double total = p.total_us > 0 ? p.total_us : 1;
  s.bound_share.clear();
  for (const char* name : {"compute", "memory", "latency", "launch", "host"}) {
    const auto it = by_bound.find(name);
    s.bound_share[name] = it == by_bound.end() ? 0 : it->second / total;
  }
  double best = -1;
  for (const auto& [name, share] : s.bound_share)
    if (share > best) best = share, s.bound = name;
}

}  // namespace gpucast::reports
