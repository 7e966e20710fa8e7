#include "sim/simulator.h"

#include <unordered_map>
#include "sim/time_attribution.h"

namespace gpucast::sim {

std::map<std::string, Microseconds> Prediction::time_by_op() const { return attribute_time(*this).by_op; }

std::map<std::string, Microseconds> Prediction::time_by_bound() const { return attribute_time(*this).by_bound; }

Simulator::Simulator(device::Device gpu)
    : predictor_(std::move(gpu)), host_(host_from_launch(predictor_.device().launch(), predictor_.device().id())) {}

Simulator::Simulator(device::Device gpu, hw::HostSpec host) : predictor_(std::move(gpu)), host_(std::move(host)) {}

Simulator::Simulator(const hw::SystemSpec& system)
    : predictor_(system), host_(host_from_launch(predictor_.device().launch(), predictor_.device().id())) {}

Simulator::Simulator(const hw::SystemSpec& system, hw::HostSpec host) : predictor_(system), host_(std::move(host)) {}

Prediction Simulator::predict(const wl::Workload& w) {
  Prediction p;
  p.gpu = device().id();
  if (system()) p.system = system()->id;
  p.workload = w.name();
  p.launch = w.launch();
  std::vector<const OpTiming*> ops;
  ops.reserve(w.size());
  p.kernels.reserve(w.size());
  // Name and shape text once per distinct op (the cache's entry stands for its parameters).
  std::unordered_map<const OpTiming*, std::pair<std::string, std::string>> labels;
  for (const auto& k : w.kernels()) {
    const OpTiming* timing = nullptr;
    try {
      timing = &predictor_.predict(k.op);
    } catch (const UnsupportedError& e) {
      // A collective's problem (no system, too many ranks) points at the kernel that asked for it.
      if (!std::holds_alternative<wl::CollectiveOp>(k.op)) throw;
      throw InputError(k.where, k.name, e.what());
    }
    const OpTiming& t = *timing;
    ops.push_back(&t);
    auto label = labels.find(&t);
    if (label == labels.end()) label = labels.emplace(&t, std::pair{wl::op_name(k.op), wl::op_shape(k.op)}).first;
    KernelPrediction kp;
    kp.name = k.name;
    kp.op = label->second.first;
    kp.shape = label->second.second;
    kp.stream = k.stream;
    kp.timing = &t;
    kp.sol_pipe = sol_pipe(k.op, device());
    p.flops += t.flops;
    p.dram_bytes += t.dram_bytes;
    p.kernels.push_back(std::move(kp));
  }
  // The workload may override the eager host cost per kernel (--host-launch-us).
  // A replayed trace keeps its measured host time (sim/host_issue.h); any other workload is issued
  // by the host description (sim/host_timeline.h).
  HostTimeline h;
  Timeline t;
  if (w.replays_host()) {
    t = schedule(w, ops, device().rates().dram, device().launch());
    h.begin_us.assign(w.size(), 0);
    h.cost.assign(w.size(), HostSplit{});
    for (size_t i = 0; i < w.size(); ++i) h.begin_us[i] = t.kernels[i].issue_us;
    h.stall_us = t.host_sync_wait_us;
    h.busy_us = std::max(0.0, t.host_us - t.host_sync_wait_us);
    for (const auto& k : w.kernels()) h.delay_us += k.host_delay_us.value_or(0.0);
    h.end_us = t.host_us;
  } else {
    t = schedule_with_host(w, ops, device().rates().dram, device().launch(), host_, h);
  }
  p.total_us = t.total_us;
  p.gpu_busy_us = t.gpu_busy_us;
  p.host_us = t.host_us;
  p.host_sync_wait_us = t.host_sync_wait_us;
  p.host = host_.id;
  p.host_busy_us = h.busy_us;
  p.host_stall_us = h.stall_us;
  p.host_delay_us = h.delay_us;
  p.syncs = h.syncs;
  p.host_by_category = h.busy_by_category;
  for (size_t i = 0; i < w.size(); ++i) {
    p.kernels[i].scheduled = t.kernels[i];
    p.kernels[i].host_begin_us = h.begin_us[i];
    p.kernels[i].host_cost = h.cost[i];
  }
  return p;
}

}  // namespace gpucast::sim
