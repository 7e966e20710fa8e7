#include "sim/host_issue.h"

#include <algorithm>

#include "sim/timeline.h"

namespace gpucast::sim {

HostIssuer::HostIssuer(const wl::Workload& w, const std::vector<const OpTiming*>& ops,
                       const device::LaunchCosts& costs, const std::vector<Microseconds>* fixed)
    : w_(w),
      ops_(ops),
      costs_(costs),
      fixed_(fixed && fixed->size() == w.size() ? fixed : nullptr),
      issue_(w.size(), 0) {}

bool HostIssuer::blocked_on_sync() const {
  return !fixed_ && next_ < w_.size() && w_.launch() != wl::LaunchMode::graph &&
         w_.kernels()[next_].host_sync_at_us.has_value();
}

std::pair<size_t, size_t> HostIssuer::issue(Microseconds gpu_done_us) {
  const size_t first = next_;
  const bool graph = w_.launch() == wl::LaunchMode::graph;
  for (; next_ < w_.size(); ++next_) {
    if (fixed_) {
      issue_[next_] = host_ = (*fixed_)[next_];
      continue;
    }
    const auto& k = w_.kernels()[next_];
    if (graph) {
      issue_[next_] = costs_.graph_replay_us;
      continue;
    }
    if (k.host_delay_us) {
      if (k.host_sync_at_us) {
        if (next_ != first) break;  // the caller resumes once every earlier kernel has finished
        const Microseconds reach = host_ + *k.host_sync_at_us;
        sync_wait_us_ += std::max(0.0, gpu_done_us - reach);
        host_ = std::max(reach, gpu_done_us) + (*k.host_delay_us - *k.host_sync_at_us);
      } else {
        host_ += *k.host_delay_us;
      }
    } else {
      host_ += costs_.host_eager_us + ops_[next_]->host_us;
    }
    issue_[next_] = host_;
  }
  return {first, next_};
}

Microseconds HostIssuer::host_end_us() const {
  if (fixed_) return fixed_->empty() ? 0.0 : fixed_->back();
  if (w_.launch() == wl::LaunchMode::graph) return costs_.graph_replay_us;
  return host_ + w_.host_tail_us().value_or(0.0);
}

Timeline schedule_replayed_host(const wl::Workload& w, const std::vector<const OpTiming*>& ops,
                                device::BytesPerUs dram, const device::LaunchCosts& costs, HostTimeline& h) {
  Timeline t = schedule(w, ops, dram, costs);
  h = HostTimeline{};
  h.begin_us.assign(w.size(), 0);
  h.issue_us.assign(w.size(), 0);
  h.split_of.assign(w.size(), 0);
  for (size_t i = 0; i < w.size(); ++i) h.begin_us[i] = h.issue_us[i] = t.kernels[i].issue_us;
  h.stall_us = t.host_sync_wait_us;
  h.busy_us = std::max(0.0, t.host_us - t.host_sync_wait_us);
  for (const auto& k : w.kernels()) h.delay_us += k.host_delay_us.value_or(0.0);
  h.end_us = t.host_us;
  return t;
}

}  // namespace gpucast::sim
