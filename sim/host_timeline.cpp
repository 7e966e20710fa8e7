#include "sim/host_timeline.h"

#include <algorithm>
#include <cstring>
#include <unordered_map>

#include "common/huge_pages.h"
#include "sim/rank_skew.h"

namespace gpucast::sim {

using wl::HostCategory;

hw::HostSpec::LibraryKind library_kind(const wl::Op& op) {
  using K = hw::HostSpec::LibraryKind;
  if (std::holds_alternative<wl::GemmOp>(op)) return K::gemm;
  if (std::holds_alternative<wl::AttentionOp>(op)) return K::attention;
  if (std::holds_alternative<wl::EmbeddingOp>(op)) return K::embedding;
  if (const auto* r = std::get_if<wl::RowOp>(&op))
    if (r->kind == wl::RowOpKind::layernorm || r->kind == wl::RowOpKind::rmsnorm) return K::norm;
  return K::other;
}

HostSplit host_cost(const hw::HostSpec& host, const wl::HostWork& work, double library_floor_us,
                    hw::HostSpec::LibraryKind library) {
  HostSplit s{};
  auto price = [&](HostCategory c, double unit_us) { s[size_t(c)] = work[c] * unit_us; };
  const double f = host.model_factor;
  price(HostCategory::module_call, f * host.module_call_us);
  price(HostCategory::op_dispatch, f * host.op_dispatch_us);
  price(HostCategory::autograd_node, f * host.autograd_node_us);
  price(HostCategory::grad_record, f * host.grad_record_us);
  price(HostCategory::launch, f * host.launch_us);
  price(HostCategory::library_call, std::max(f * host.library_us(library), library_floor_us));
  price(HostCategory::optimizer_step, f * host.optimizer_step_us);
  price(HostCategory::optimizer_param, f * host.optimizer_param_us);
  price(HostCategory::foreach_tensor, f * host.foreach_tensor_us);
  price(HostCategory::fused_tensor, f * host.fused_step_per_tensor_us);
  price(HostCategory::sync, host.sync_us);
  price(HostCategory::graph_replay, host.graph_replay_us);
  price(HostCategory::graph_kernel, host.graph_per_kernel_us);
  price(HostCategory::compile_guard, host.compile_guard_us);
  price(HostCategory::compile_launch, host.compile_launch_us);
  price(HostCategory::fsdp_group, f * host.fsdp_group_us);
  return s;
}

Microseconds total(const HostSplit& split) {
  Microseconds t = 0;
  for (double v : split) t += v;
  return t;
}

hw::HostSpec host_from_launch(const device::LaunchCosts& launch, const std::string& id) {
  hw::HostSpec h;
  h.id = id + "-launch-costs";
  h.name = "flat eager launch costs of " + id;
  h.launch_us = launch.host_eager_us;
  h.library_call_us = launch.host_library_us;
  h.graph_replay_us = launch.graph_replay_us;
  h.compile_launch_us = launch.host_eager_us;
  return h;
}

namespace {
// Gives each distinct split one index into HostTimeline::splits.
class SplitInterner {
 public:
  explicit SplitInterner(HostTimeline& h) : h_(h) {
    for (size_t i = 0; i < h.splits.size(); ++i) index_.emplace(h.splits[i], std::uint32_t(i));
  }
  std::uint32_t operator()(const HostSplit& s) {
    auto [it, added] = index_.try_emplace(s, std::uint32_t(h_.splits.size()));
    if (added) h_.splits.push_back(s);
    return it->second;
  }

 private:
  struct Hash {
    size_t operator()(const HostSplit& s) const {
      size_t h = 0;
      for (double v : s) {
        std::uint64_t bits;
        std::memcpy(&bits, &v, sizeof bits);
        h = h * 1000003u ^ std::hash<std::uint64_t>{}(bits);
      }
      return h;
    }
  };
  HostTimeline& h_;
  std::unordered_map<HostSplit, std::uint32_t, Hash> index_;
};
}  // namespace

Timeline schedule_with_host(const wl::Workload& w, const std::vector<const OpTiming*>& ops,
                            device::BytesPerUs dram, const device::LaunchCosts& costs,
                            const hw::HostSpec& host, HostTimeline& h) {
  const size_t n = w.size();
  h = HostTimeline{};
  reserve_large(h.begin_us, n);
  reserve_large(h.issue_us, n);
  reserve_large(h.split_of, n);
  h.begin_us.assign(n, 0);
  h.issue_us.assign(n, 0);
  h.split_of.assign(n, 0);
  SplitInterner intern(h);
  const bool graph = w.launch() == wl::LaunchMode::graph;

  if (graph) {
    wl::HostWork replay;
    replay.add(HostCategory::graph_replay).add(HostCategory::graph_kernel, double(n));
    const HostSplit c = host_cost(host, replay);
    if (n > 0) h.split_of[0] = intern(c);
    h.busy_by_category = c;
    h.busy_us = total(c);
    h.issue_us.assign(n, h.busy_us);
    Timeline t = schedule(w, ops, dram, costs, &h.issue_us);
    h.end_us = h.busy_us;
    t.host_us = h.end_us;
    return t;
  }

  // Each kernel's own host time; --host-launch-us (the workload's) replaces the launch price.
  hw::HostSpec priced = host;
  if (w.host_launch_us()) priced.launch_us = *w.host_launch_us() / host.model_factor;  // exact, unscaled
  std::vector<Microseconds> own;
  reserve_large(own, n);
  own.resize(n);
  std::vector<size_t> sync_points;
  for (size_t i = 0; i < n; ++i) {
    const auto& k = w.kernels()[i];
    const wl::HostWork work = k.host.empty() ? wl::default_host_work(k.op) : k.host;
    HostSplit cost = host_cost(priced, work, ops[i]->host_us, library_kind(k.op));
    // A call with a measured host floor (an eager collective) costs the host at least that, less
    // right after another such call (back-to-back calls run hot); the difference is library work
    // (ProcessGroupNCCL's per-call setup).
    const bool hot = i > 0 && ops[i - 1]->host_floor_us > 0;
    const double floor = hot ? ops[i]->host_floor_hot_us : ops[i]->host_floor_us;
    if (const double floor_gap = floor - total(cost); floor_gap > 0)
      cost[size_t(HostCategory::library_call)] += floor_gap;
    h.split_of[i] = intern(cost);
    own[i] = total(cost) + k.host_delay_us.value_or(0.0);
    h.delay_us += k.host_delay_us.value_or(0.0);
    for (size_t c = 0; c < wl::kHostCategories; ++c) h.busy_by_category[c] += cost[c];
    if (k.sync) sync_points.push_back(i);
  }

  // Issue times without stalls, then one pass per synchronization: the host resumes when the GPU
  // has finished everything issued up to the sync point, and every later kernel shifts by the wait.
  std::vector<Microseconds> shift;
  reserve_large(shift, n + 1);
  shift.resize(n + 1, 0);  // stall accumulated before kernel i's host work
  auto issue_times = [&] {
    Microseconds clock = 0;
    for (size_t i = 0; i < n; ++i) {
      clock += shift[i];
      h.begin_us[i] = clock;
      clock += own[i];
      h.issue_us[i] = clock;
    }
    return clock + shift[n];
  };
  // The GPU side: a collective also waits for the slowest rank's host (sim/rank_skew.h), measured from
  // where the ranks last synchronized (the resumption after the latest sync point).
  // (Most workloads have no skewed collective: they schedule on the host's issue times, no copies.)
  const bool skewed =
      std::any_of(ops.begin(), ops.end(), [](const OpTiming* o) { return o->peer_host_skew > 0; });
  const auto gpu_schedule = [&] {
    if (!skewed) return schedule(w, ops, dram, costs, &h.issue_us);
    std::vector<Microseconds> since(n, 0);
    size_t next_sync = 0;
    Microseconds resumed = 0;
    for (size_t i = 0; i < n; ++i) {
      since[i] = resumed;
      if (next_sync < sync_points.size() && sync_points[next_sync] == i) {
        ++next_sync;
        if (i + 1 < n) resumed = h.begin_us[i + 1];
      }
    }
    const std::vector<Microseconds> ready = peer_ready_times(ops, h.issue_us, since);
    return schedule(w, ops, dram, costs, &ready);
  };
  Microseconds host_end = issue_times();
  Timeline t = gpu_schedule();
  for (size_t s : sync_points) {
    Microseconds gpu_done = 0;
    for (size_t i = 0; i <= s; ++i) gpu_done = std::max(gpu_done, t.kernels[i].end_us);
    const Microseconds wait = std::max(0.0, gpu_done - h.issue_us[s]);
    ++h.syncs;
    if (wait <= 0) continue;
    h.stall_us += wait;
    shift[s + 1] += wait;
    host_end = issue_times();
    t = gpu_schedule();
  }
  h.busy_us = 0;
  for (size_t i = 0; i < n; ++i) h.busy_us += own[i];
  h.end_us = host_end;
  t.host_us = h.end_us;
  t.total_us = std::max(t.total_us, h.end_us);
  return t;
}

}  // namespace gpucast::sim
