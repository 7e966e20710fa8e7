#pragma once
// The rates the simulator works with, derived once from a GpuSpec. Units: time in microseconds,
// work in bytes, FLOPs and SM cycles; every rate is per microsecond.
#include <map>

#include "hardware/gpu_spec.h"
#include "models/kernel_plan.h"

namespace gpucast::sim {

using Microseconds = double;
using BytesPerUs = double;  // 1 GB/s = 1e3 bytes/us
using FlopsPerUs = double;  // 1 TFLOP/s = 1e6 FLOP/us

struct GpuRates {
  int sms = 0;
  int warp_size = 32;            // threads per warp (NVIDIA) or wavefront (AMD CDNA: 64)
  double clock_mhz = 0;         // sustained SM clock = cycles per microsecond
  BytesPerUs dram = 0;          // sustained DRAM bandwidth, whole GPU
  BytesPerUs l2 = 0;            // sustained L2-to-SM bandwidth, whole GPU
  BytesPerUs sm_dram = 0;       // the most one SM draws from DRAM
  BytesPerUs sm_l2 = 0;         // the most one SM draws from L2
  Microseconds dram_latency = 0;  // unloaded DRAM round trip as streams see it (Little's-law latency)
  Microseconds l2_round = 0;    // one dependent L2 round trip
  Microseconds first_touch = 0; // first DRAM access after an L2 flush
  Microseconds launch = 0;      // first kernel of an op, do_bench semantics
  Microseconds queued = 0;      // each further kernel queued behind it
  Microseconds flush = 0;       // do_bench's 256 MB L2 flush: host work shorter than this is hidden
  double blocks_per_us = 0;     // GPU-wide thread block dispatch rate
  double simt_lanes_per_us = 0; // SIMT lane-instructions per SM per microsecond
  double sfu_per_us = 0;        // per SM
  double fp32_per_us = 0;       // FLOPs per SM per microsecond, sustained
  double fp64_per_us = 0;
  std::map<DataType, FlopsPerUs> tensor_per_us;    // per SM, sustained
  std::map<DataType, FlopsPerUs> mma_sync_per_us;  // per SM, sustained

  [[nodiscard]] static GpuRates from(const hw::GpuSpec& gpu);
  // Per-SM rate of `pipe` for `dtype`; throws UnsupportedError when the GPU lacks it.
  [[nodiscard]] FlopsPerUs pipe_rate(models::Pipe pipe, DataType dtype) const;
};

}  // namespace gpucast::sim
