#include "sim/host_schedule.h"

#include "sim/host_issue.h"

namespace gpucast::sim {

Timeline schedule_host_and_gpu(const wl::Workload& w, const std::vector<const OpTiming*>& ops,
                               device::BytesPerUs dram, const device::LaunchCosts& costs,
                               const hw::HostSpec& host, HostTimeline& host_out) {
  if (w.replays_host()) return schedule_replayed_host(w, ops, dram, costs, host_out);
  return schedule_with_host(w, ops, dram, costs, host, host_out);
}

}  // namespace gpucast::sim
