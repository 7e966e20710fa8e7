#pragma once
// Where a step's time goes, from its timeline: every microsecond between 0 and the step's end is
// given to exactly one thing. While kernels run, each running kernel gets an equal part of the
// interval (two overlapping kernels get half each); while none runs, the time is the GPU waiting
// for the host ("host": launch issue, Python, synchronisation). Standalone kernel durations do not
// add up to the step once streams overlap or kernels slow each other down; these figures do, and
// every report (by op, by bound, per kernel; text, CSV, JSON, HTML) renders them.
#include <map>
#include <string>
#include <vector>

#include "sim/simulator.h"

namespace gpucast::sim {

// The category for time no kernel runs.
inline constexpr const char* kIdleCategory = "host";

struct TimeAttribution {
  std::vector<Microseconds> kernel_us;           // per kernel, workload order
  Microseconds idle_us = 0;                      // no kernel running
  Microseconds total_us = 0;                     // the step: sum of kernel_us and idle_us
  std::map<std::string, Microseconds> by_op;     // op family -> us, plus kIdleCategory
  std::map<std::string, Microseconds> by_bound;  // bound -> us, plus kIdleCategory
};

[[nodiscard]] TimeAttribution attribute_time(const Prediction& p);

}  // namespace gpucast::sim
