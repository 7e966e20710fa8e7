#include "sim/timeline.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <queue>

#include "common/errors.h"
#include "common/huge_pages.h"
#include "sim/host_issue.h"
#include "sim/sm_residency.h"

namespace gpucast::sim {
namespace {

enum class EventKind { startable, activate, complete };

struct Event {
  Microseconds time;
  EventKind kind;
  size_t kernel;
  bool operator>(const Event& o) const { return time > o.time; }
};

struct Active {
  size_t kernel;
  double remaining_us;  // standalone execution time still to run
  double sm_share;      // fraction of the SMs it occupies alone
  double dram_share;    // fraction of DRAM bandwidth it uses alone
  bool holds_sms;       // its blocks stay on their SMs to the end (sim/sm_residency.h)
  bool displaced;       // a persistent kernel kept off the SMs a collective holds
};

}  // namespace

Timeline schedule(const wl::Workload& w, const std::vector<const OpTiming*>& ops, device::BytesPerUs dram,
                  const device::LaunchCosts& costs, const std::vector<Microseconds>* issue_us) {
  const size_t n = w.size();
  Timeline out;
  reserve_large(out.kernels, n);
  out.kernels.resize(n);
  const bool graph = w.launch() == wl::LaunchMode::graph;

  // Host issue times: eager issues one op after another; one graph replay issues them all; a
  // replayed trace issues up to its next sync point, then resumes when the GPU has caught up.
  HostIssuer host(w, ops, costs, issue_us);
  std::vector<bool> issued(n, false), completed(n, false);
  size_t done_prefix = 0;  // kernels [0, done_prefix) have all finished
  Microseconds done_prefix_us = 0;

  // Successors in one array (kernel p's are succ_list[succ_offsets[p] .. succ_offsets[p + 1]), in
  // workload order), counting first so that a million kernels cost two allocations, not a million.
  std::vector<size_t> waiting(n);
  std::vector<size_t> succ_offsets;
  reserve_large(succ_offsets, n + 1);
  succ_offsets.resize(n + 1, 0);
  std::vector<Microseconds> deps_done(n, 0);
  for (size_t i = 0; i < n; ++i) {
    waiting[i] = w.predecessors(i).size();
    for (size_t p : w.predecessors(i)) ++succ_offsets[p + 1];
  }
  for (size_t i = 0; i < n; ++i) succ_offsets[i + 1] += succ_offsets[i];
  std::vector<size_t> succ_list(succ_offsets[n]);
  {
    std::vector<size_t> fill(succ_offsets.begin(), succ_offsets.end() - 1);
    for (size_t i = 0; i < n; ++i)
      for (size_t p : w.predecessors(i)) succ_list[fill[p]++] = i;
  }
  auto successors = [&](size_t k) { return wl::IndexSpan(succ_list.data() + succ_offsets[k], succ_list.data() + succ_offsets[k + 1]); };

  std::priority_queue<Event, std::vector<Event>, std::greater<>> events;
  auto issue_ready = [&](Microseconds now_us) {
    const auto [from, to] = host.issue(done_prefix_us);
    for (size_t i = from; i < to; ++i) {
      out.kernels[i].issue_us = host.issue_us(i);
      issued[i] = true;
      if (waiting[i] == 0) events.push({std::max(now_us, out.kernels[i].issue_us), EventKind::startable, i});
    }
  };
  issue_ready(0);
  // A kernel finished: release its successors, and the host when it waits at a sync point.
  auto complete = [&](size_t k, Microseconds now_us) {
    out.kernels[k].end_us = now_us;
    completed[k] = true;
    for (size_t s : successors(k)) {
      deps_done[s] = std::max(deps_done[s], now_us);
      if (--waiting[s] == 0 && issued[s]) events.push({std::max(now_us, out.kernels[s].issue_us), EventKind::startable, s});
    }
    while (done_prefix < n && completed[done_prefix]) ++done_prefix;
    done_prefix_us = std::max(done_prefix_us, now_us);
    if (host.blocked_on_sync() && done_prefix >= host.next()) issue_ready(now_us);
  };

  std::vector<Active> active;
  Microseconds now = 0;
  // Each running kernel's slowdown: DRAM bandwidth is shared by all; SMs by the kernels whose blocks
  // share them. A collective's resident blocks share their SMs' issue with the blocks of a kernel
  // spread over every SM, equally (sim/sm_residency.h), and not with a persistent kernel kept off them.
  std::vector<double> factors;
  auto slowdowns = [&] {
    double sm = 0, dram = 0;
    bool co_resident = false;
    for (const auto& a : active) {
      sm += a.sm_share;
      dram += a.dram_share;
      co_resident = co_resident || (!a.holds_sms && !a.displaced && a.sm_share > 0);
    }
    factors.resize(active.size());
    for (size_t a = 0; a < active.size(); ++a)
      factors[a] = active[a].holds_sms ? std::max({1.0, dram, co_resident ? kSharedIssueSlowdown : 1.0})
                                       : std::max({1.0, sm, dram});
  };

  bool first = true;
  while (!events.empty() || !active.empty()) {
    // Next completion among running kernels at the current shared rate.
    slowdowns();
    Microseconds next_done = std::numeric_limits<double>::infinity();
    size_t done_index = 0;
    for (size_t a = 0; a < active.size(); ++a) {
      const Microseconds t = now + active[a].remaining_us * factors[a];
      if (t < next_done) {
        next_done = t;
        done_index = a;
      }
    }
    const bool take_event = !events.empty() && events.top().time <= next_done;
    const Microseconds t_next = take_event ? events.top().time : next_done;
    for (size_t a = 0; a < active.size(); ++a) active[a].remaining_us -= (t_next - now) / factors[a];
    now = t_next;

    if (!take_event) {
      const size_t k = active[done_index].kernel;
      active.erase(active.begin() + static_cast<long>(done_index));
      complete(k, now);
      continue;
    }
    const Event e = events.top();
    events.pop();
    const size_t k = e.kernel;
    const OpTiming& op = *ops[k];
    if (e.kind == EventKind::startable) {
      auto& s = out.kernels[k];
      s.start_us = now;
      s.waited_for_host = !graph && s.issue_us >= deps_done[k];
      const double internal_gaps = double(op.kernels.size() > 0 ? op.kernels.size() - 1 : 0);
      Microseconds overhead = graph ? costs.graph_kernel_us * (1 + internal_gaps)
                                    : (s.waited_for_host ? costs.cold_kernel_us : costs.queued_kernel_us) +
                                          costs.queued_kernel_us * internal_gaps;
      if (first) overhead += costs.first_touch_us;
      first = false;
      events.push({now + overhead, EventKind::activate, k});
    } else {
      double sm_share = 0;
      for (const auto& kt : op.kernels) sm_share = std::max(sm_share, std::min(1.0, kt.waves));
      Microseconds exec = graph && op.graph_exec_us >= 0 ? op.graph_exec_us : op.exec_us;
      const double dram_share = exec > 0 ? op.dram_bytes / exec / dram : 0;
      // SMs that running collectives hold: a persistent kernel's displaced blocks wait for a whole
      // share of work (sim/sm_residency.h), and it then shares only the SMs it got.
      double held = 0;
      for (const auto& a : active)
        if (a.holds_sms) held += a.sm_share;
      const double stretched = op.holds_sms ? op.exec_us : displaced_exec_us(op.kernels, op.exec_us, held);
      const bool displaced = stretched > op.exec_us;
      if (displaced) {
        exec *= stretched / op.exec_us;
        sm_share = std::min(sm_share, std::max(0.0, 1.0 - held));
      }
      if (exec <= 0) {
        complete(k, now);
      } else {
        active.push_back({k, exec, sm_share, std::min(1.0, dram_share), op.holds_sms, displaced});
      }
    }
  }
  if (host.next() < n)
    throw InputError(w.where(host.next()), "host_sync_at_us",
                     "kernel '" + w.kernels()[host.next()].name +
                         "': the host waits here for earlier kernels that depend on later ones (the replay cannot proceed)");
  // Busy time: the union of the kernels' [start, end] intervals.
  std::vector<std::pair<Microseconds, Microseconds>> spans;
  reserve_large(spans, n);
  for (const auto& s : out.kernels) {
    out.total_us = std::max(out.total_us, s.end_us);
    spans.emplace_back(s.start_us, s.end_us);
  }
  out.host_us = host.host_end_us();
  out.host_sync_wait_us = host.sync_wait_us();
  if (w.host_tail_us()) out.total_us = std::max(out.total_us, out.host_us);
  if (!std::is_sorted(spans.begin(), spans.end())) std::sort(spans.begin(), spans.end());  // one stream: in order
  Microseconds covered_until = 0;
  for (const auto& [begin, end] : spans) {
    out.gpu_busy_us += std::max(0.0, end - std::max(begin, covered_until));
    covered_until = std::max(covered_until, end);
  }
  return out;
}

}  // namespace gpucast::sim
