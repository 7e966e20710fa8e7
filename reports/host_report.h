#pragma once
// The host side of a prediction: host-busy, GPU-busy and idle time, host time per category,
// whether the run is host-bound, and what would change it (each alternative predicted by re-running
// the simulation with that change; the CLI computes them, sim/ and workloads/ stay unaware).
#include <string>
#include <vector>

#include "reports/json.h"
#include "reports/report.h"
#include "reports/table.h"
#include "sim/simulator.h"

namespace gpucast::reports {

struct HostAlternative {
  std::string change;       // "CUDA graphs"
  std::string how;          // "--launch graph"
  double total_us = 0;      // predicted step time with the change
  double items = 1;         // items per step with the change (batch changes it)
  bool host_bound = false;  // still host-bound with the change
};

// One line: "host busy 8.1 ms, GPU busy 3.2 ms, GPU idle 4.9 ms: host-bound (...)".
[[nodiscard]] std::string host_summary(const sim::Prediction& p);
// Host time per category (categories with time only), then delays and sync waits.
[[nodiscard]] Table host_table(const sim::Prediction& p);
// The alternatives with their effect on time per item relative to `base_items` per step.
[[nodiscard]] Table alternatives_table(const sim::Prediction& p, double base_items,
                                       const std::vector<HostAlternative>& alternatives);
// "Host" (summary and time per category) and, with alternatives, "What would change it".
[[nodiscard]] std::vector<Section> host_sections(const sim::Prediction& p, double base_items,
                                                 const std::vector<HostAlternative>& alternatives);
[[nodiscard]] Json host_json(const sim::Prediction& p, double base_items,
                             const std::vector<HostAlternative>& alternatives);

}  // namespace gpucast::reports
