#include "sim/simulator.h"

#include "sim/time_attribution.h"

namespace gpucast::sim {

std::map<std::string, Microseconds> Prediction::time_by_op() const { return attribute_time(*this).by_op; }

std::map<std::string, Microseconds> Prediction::time_by_bound() const { return attribute_time(*this).by_bound; }

Simulator::Simulator(const hw::GpuSpec& gpu) : predictor_(gpu) {}

Prediction Simulator::predict(const wl::Workload& w) {
  Prediction p;
  p.gpu = gpu().id;
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
    kp.sol = speed_of_light(sol_pipe(k.op, gpu()), gpu(), t.flops, t.dram_bytes, t.duration_us, t.bound);
    p.flops += t.flops;
    p.dram_bytes += t.dram_bytes;
    p.kernels.push_back(std::move(kp));
  }
  const auto& g = gpu();
  LaunchCosts costs;
  costs.host_per_kernel = w.launch() == wl::LaunchMode::graph ? g.launch.kernel_us
                                                              : w.host_launch_us().value_or(g.launch.host_eager_us);
  costs.cold_launch = g.launch.kernel_us;
  costs.queued = g.launch.queued_kernel_us;
  costs.graph_per_kernel = g.launch.graph_kernel_us;
  costs.first_touch = rates().first_touch;
  const Timeline t = schedule(w, ops, rates(), costs);
  p.total_us = t.total_us;
  p.gpu_busy_us = t.gpu_busy_us;
  p.host_us = t.host_us;
  for (size_t i = 0; i < w.size(); ++i) p.kernels[i].scheduled = t.kernels[i];
  return p;
}

}  // namespace gpucast::sim
