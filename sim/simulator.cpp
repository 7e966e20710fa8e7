#include "sim/simulator.h"

#include "sim/time_attribution.h"

namespace gpucast::sim {

std::map<std::string, Microseconds> Prediction::time_by_op() const { return attribute_time(*this).by_op; }

std::map<std::string, Microseconds> Prediction::time_by_bound() const { return attribute_time(*this).by_bound; }

Simulator::Simulator(device::Device gpu) : predictor_(std::move(gpu)) {}

Simulator::Simulator(const hw::SystemSpec& system) : predictor_(system) {}

Prediction Simulator::predict(const wl::Workload& w) {
  Prediction p;
  p.gpu = device().id();
  if (system()) p.system = system()->id;
  p.workload = w.name();
  p.launch = w.launch();
  std::vector<const OpTiming*> ops;
  ops.reserve(w.size());
  p.kernels.reserve(w.size());
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
    KernelPrediction kp;
    kp.name = k.name;
    kp.op = wl::op_name(k.op);
    kp.shape = wl::op_shape(k.op);
    kp.stream = k.stream;
    kp.timing = &t;
    kp.sol_pipe = sol_pipe(k.op, device());
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
  p.host_sync_wait_us = t.host_sync_wait_us;
  for (size_t i = 0; i < w.size(); ++i) p.kernels[i].scheduled = t.kernels[i];
  return p;
}

}  // namespace gpucast::sim
