#pragma once
// The simulator's front door: a GPU and a workload in, per-kernel standalone durations and the
// workload's timeline out.
#include <map>
#include <string>
#include <vector>

#include "sim/op_predictor.h"
#include "sim/timeline.h"
#include "workloads/workload.h"

namespace gpucast::sim {

struct KernelPrediction {
  std::string name;
  std::string op;     // family as written in workload files
  std::string shape;  // human-readable parameters
  int stream = 0;
  const OpTiming* timing = nullptr;  // standalone prediction (owned by the Simulator's cache)
  ScheduledKernel scheduled;
};

struct Prediction {
  std::string gpu;
  std::string workload;
  wl::LaunchMode launch = wl::LaunchMode::eager;
  Microseconds total_us = 0;
  Microseconds gpu_busy_us = 0;
  Microseconds host_us = 0;
  std::vector<KernelPrediction> kernels;
  double flops = 0;       // useful FLOPs of all kernels
  double dram_bytes = 0;  // predicted DRAM traffic of all kernels
  [[nodiscard]] Microseconds gpu_idle_us() const { return total_us - gpu_busy_us; }
  // Standalone kernel time summed per op family and per bound, microseconds.
  [[nodiscard]] std::map<std::string, Microseconds> time_by_op() const;
  [[nodiscard]] std::map<std::string, Microseconds> time_by_bound() const;
};

class Simulator {
 public:
  explicit Simulator(device::Device gpu);
  [[nodiscard]] const device::Device& device() const { return predictor_.device(); }
  // The Prediction points into this simulator's cache: keep the simulator alive while using it.
  [[nodiscard]] Prediction predict(const wl::Workload& w);
  [[nodiscard]] const OpTiming& predict_op(const wl::Op& op) { return predictor_.predict(op); }

 private:
  OpPredictor predictor_;
};

}  // namespace gpucast::sim
