#include "sim/rank_skew.h"

#include <algorithm>

namespace gpucast::sim {

std::vector<Microseconds> peer_ready_times(const std::vector<const OpTiming*>& ops,
                                           const std::vector<Microseconds>& issue_us,
                                           const std::vector<Microseconds>& since_us) {
  std::vector<Microseconds> ready = issue_us;
  for (size_t i = 0; i < ready.size() && i < ops.size(); ++i) {
    const double skew = ops[i]->peer_host_skew;
    if (skew <= 0) continue;
    const Microseconds since = i < since_us.size() ? since_us[i] : 0.0;
    ready[i] = std::max(ready[i], since + std::max(0.0, ready[i] - since) * (1 + skew));
  }
  return ready;
}

}  // namespace gpucast::sim
