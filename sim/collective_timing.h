#pragma once
// A collective as the simulator schedules it: its standalone time from the collective model, one
// kernel that holds the NCCL channels' SMs and streams the wire bytes through DRAM, so that compute
// overlapping it on another stream shares SMs and DRAM bandwidth with it.
#include "hardware/system_spec.h"
#include "models/collective_model.h"
#include "sim/op_predictor.h"

namespace gpucast::sim {

[[nodiscard]] OpTiming time_collective(const wl::CollectiveOp& op, const hw::SystemSpec& system,
                                       const device::Device& gpu);

}  // namespace gpucast::sim
