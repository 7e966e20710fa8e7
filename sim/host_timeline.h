#pragma once
// The host side of a workload's timeline: the host issues kernels in workload order, paying each
// kernel's host cost (its HostWork priced by the host description, plus explicit host delays);
// a kernel cannot start before the host has launched it; a synchronizing kernel stalls the host
// until the GPU has finished it. The GPU side is sim::schedule().
#include <array>
#include <cstdint>
#include <vector>

#include "hardware/host_spec.h"
#include "sim/timeline.h"
#include "workloads/workload.h"

namespace gpucast::sim {

using HostSplit = std::array<Microseconds, wl::kHostCategories>;

// Host time of each category for one kernel. `library_floor_us` is the op model's own host time
// per library call (e.g. a decode attention path), used where it exceeds the host's library cost.
[[nodiscard]] HostSplit host_cost(const hw::HostSpec& host, const wl::HostWork& work,
                                  double library_floor_us = 0);
[[nodiscard]] Microseconds total(const HostSplit& split);

struct HostTimeline {
  std::vector<Microseconds> begin_us;  // when the host starts the kernel's host work
  std::vector<Microseconds> issue_us;  // when it has launched it
  // Each kernel's host time per category, stored once per distinct split (a workload repeats a
  // handful of them): splits[0] is all zero, split_of[i] indexes kernel i's.
  std::vector<HostSplit> splits{HostSplit{}};
  std::vector<std::uint32_t> split_of;  // per kernel
  [[nodiscard]] const HostSplit& cost(size_t kernel) const { return splits[split_of[kernel]]; }
  HostSplit busy_by_category{};        // summed over kernels
  Microseconds busy_us = 0;            // host working (categories and explicit delays)
  Microseconds delay_us = 0;           // explicit host delays (traced gaps)
  Microseconds stall_us = 0;           // host waiting in synchronizations
  Microseconds end_us = 0;             // when the host has issued (and synchronized) everything
  int syncs = 0;
};

// Schedules host and GPU together. `costs` carries the GPU-side launch costs. Graph mode: one replay issues
// every kernel (graph.replay_us + graph.per_kernel_us per kernel) and kernel host work is not paid.
[[nodiscard]] Timeline schedule_with_host(const wl::Workload& w, const std::vector<const OpTiming*>& ops,
                                          device::BytesPerUs dram, const device::LaunchCosts& costs,
                                          const hw::HostSpec& host, HostTimeline& host_out);

// The flat eager charge of a device's launch costs as a host: host_eager_us per launch,
// host_library_us per library call, one graph replay call; every other category zero.
[[nodiscard]] hw::HostSpec host_from_launch(const device::LaunchCosts& launch, const std::string& id);

}  // namespace gpucast::sim
