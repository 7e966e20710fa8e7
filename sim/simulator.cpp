#include "sim/simulator.h"

#include <unordered_map>

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

Simulator::Simulator(device::Device gpu) : predictor_(std::move(gpu)) {}

Prediction Simulator::predict(const wl::Workload& w) {
  Prediction p;
  p.gpu = device().id();
  p.workload = w.name();
  p.launch = w.launch();
  std::vector<const OpTiming*> ops;
  ops.reserve(w.size());
  p.kernels.reserve(w.size());
  // Name and shape text once per distinct op (the cache's entry stands for its parameters).
  std::unordered_map<const OpTiming*, std::pair<std::string, std::string>> labels;
  for (const auto& k : w.kernels()) {
    const OpTiming& t = predictor_.predict(k.op);
    ops.push_back(&t);
    auto label = labels.find(&t);
    if (label == labels.end()) label = labels.emplace(&t, std::pair{wl::op_name(k.op), wl::op_shape(k.op)}).first;
    KernelPrediction kp;
    kp.name = k.name;
    kp.op = label->second.first;
    kp.shape = label->second.second;
    kp.stream = k.stream;
    kp.timing = &t;
    p.flops += t.flops;
    p.dram_bytes += t.dram_bytes;
    p.kernels.push_back(std::move(kp));
  }
  // The workload may override the eager host cost per kernel (--host-launch-us).
  device::LaunchCosts costs = device().launch();
  if (w.host_launch_us()) costs.host_eager_us = *w.host_launch_us();
  const Timeline t = schedule(w, ops, device().rates().dram, costs);
  p.total_us = t.total_us;
  p.gpu_busy_us = t.gpu_busy_us;
  p.host_us = t.host_us;
  for (size_t i = 0; i < w.size(); ++i) p.kernels[i].scheduled = t.kernels[i];
  return p;
}

}  // namespace gpucast::sim
