#pragma once
// The host side of a workload's timeline behind one interface. Two mechanisms, one file each:
// a workload that replays its host (a profiler trace's recorded host delays and sync points)
// keeps that host time (sim/host_issue.h); any other workload is issued by the host description,
// each kernel paying its host work per category (sim/host_timeline.h). Both fill the same
// HostTimeline summary the reports read.
#include <vector>

#include "hardware/host_spec.h"
#include "sim/host_timeline.h"
#include "sim/op_predictor.h"
#include "sim/timeline.h"
#include "workloads/workload.h"

namespace gpucast::sim {

[[nodiscard]] Timeline schedule_host_and_gpu(const wl::Workload& w, const std::vector<const OpTiming*>& ops,
                                             device::BytesPerUs dram, const device::LaunchCosts& costs,
                                             const hw::HostSpec& host, HostTimeline& host_out);

}  // namespace gpucast::sim
