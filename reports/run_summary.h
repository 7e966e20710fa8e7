#pragma once
// One workload on one GPU as compare, cost and sweep report it: time per step, results per second
// in the unit users pay for, whether it fits, and how the step's time splits between bounds.
#include <map>
#include <string>

#include "sim/simulator.h"

namespace gpucast::reports {

struct RunSummary {
  double time_us = 0;
  std::string result_name = "run";  // "1M tokens", "image", "training step" or "run"
  double results_per_s = 0;
  double items_per_s = 0;   // tokens or samples per second (models); 0 for workload files
  std::string items_name;   // "tokens/s", "samples/s" or ""
  bool fits = true;
  double peak_gb = 0;       // 0 when unknown (workload files)
  double capacity_gb = 0;
  double mfu = 0;
  // Share of the step each bound takes: compute, memory, latency, launch (kernel time) and host
  // (GPU idle waiting for the CPU); `bound` is the largest.
  std::map<std::string, double> bound_share;
  std::string bound;
};

// Fills time_us, bound_share and bound from a prediction.
void set_bounds(RunSummary& s, const sim::Prediction& p);

}  // namespace gpucast::reports
