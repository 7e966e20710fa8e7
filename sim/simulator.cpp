#include "sim/simulator.h"

namespace gpucast::sim {

std::map<std::string, Microseconds> Prediction::time_by_op() const {
  std::map<std::string, Microseconds> out;
  for (const auto& k : kernels) out[k.op] += k.timing->duration_us;
  return out;
}

std::map<std::string, Microseconds> Prediction::time_by_bound() const {
  std::map<std::string, Microseconds> out;
  for (const auto& k : kernels) out[std::string(bound_name(k.timing->bound))] += k.timing->duration_us;
  return out;
}

Simulator::Simulator(device::Device gpu)
    : predictor_(std::move(gpu)), host_(host_from_launch(predictor_.device().launch(), predictor_.device().id())) {}

Simulator::Simulator(device::Device gpu, hw::HostSpec host) : predictor_(std::move(gpu)), host_(std::move(host)) {}

Prediction Simulator::predict(const wl::Workload& w) {
  Prediction p;
  p.gpu = device().id();
  p.workload = w.name();
  p.launch = w.launch();
  std::vector<const OpTiming*> ops;
  ops.reserve(w.size());
  p.kernels.reserve(w.size());
  for (const auto& k : w.kernels()) {
    const OpTiming& t = predictor_.predict(k.op);
    ops.push_back(&t);
    KernelPrediction kp;
    kp.name = k.name;
    kp.op = wl::op_name(k.op);
    kp.shape = wl::op_shape(k.op);
    kp.stream = k.stream;
    kp.timing = &t;
    p.flops += t.flops;
    p.dram_bytes += t.dram_bytes;
    p.kernels.push_back(std::move(kp));
  }
  // The workload may override the eager host cost per kernel (--host-launch-us).
  HostTimeline h;
  const Timeline t = schedule_with_host(w, ops, device().rates().dram, device().launch(), host_, h);
  p.total_us = t.total_us;
  p.gpu_busy_us = t.gpu_busy_us;
  p.host_us = t.host_us;
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
