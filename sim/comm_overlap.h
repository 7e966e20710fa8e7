#pragma once
// Time in communication from a scheduled prediction: every collective's span, how much of it ran
// while compute kernels ran (overlapped) and how much the rank spent waiting on communication
// alone (exposed).
#include "sim/simulator.h"
#include "workloads/workload.h"

namespace gpucast::sim {

struct CommunicationTime {
  Microseconds total_us = 0;       // union of the collectives' intervals
  Microseconds exposed_us = 0;     // ... with no compute kernel running
  Microseconds overlapped_us = 0;  // total - exposed
  int collectives = 0;
};

[[nodiscard]] CommunicationTime communication_time(const wl::Workload& w, const Prediction& p);

}  // namespace gpucast::sim
