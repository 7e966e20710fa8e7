#include "sim/collective_timing.h"

#include <algorithm>

namespace gpucast::sim {

OpTiming time_collective(const wl::CollectiveOp& op, const hw::SystemSpec& system,
                         const device::Device& gpu) {
  const auto e = models::estimate_collective(op, system);
  OpTiming t;
  // the algorithm and NCCL's protocol (LL, LL128, Simple) it runs with
  t.option = e.protocol.empty() ? e.algorithm : e.algorithm + " " + e.protocol;
  // Standalone, as nccl-tests reports back-to-back calls: max(host floor, GPU time).
  t.duration_us = e.time_us;
  t.overhead_us = std::min(e.time_us, gpu.launch().queued_kernel_us);
  // Where the system measured the GPU-side time apart from the host floor (nccl gpu latency), the
  // floor is the host's: an eager call costs the host `fixed_us` (the host timeline charges it) and
  // the GPU its own time; a queued launch is part of that GPU time. Otherwise the eager time stays on
  // the GPU as measured, the floor included.
  if (e.host_split) {
    t.host_floor_us = e.program_host_us;
    t.host_floor_hot_us = e.fixed_us;
    t.peer_host_skew = e.peer_skew;
    t.exec_us = e.gpu_us - std::min(e.gpu_us, gpu.launch().queued_kernel_us);
  } else {
    t.exec_us = e.time_us - t.overhead_us;
  }
  // Inside a CUDA graph the host's issue floor is gone: the GPU time, less the graph's own gap (where
  // the system does not split the two, the eager time as before).
  if (e.graph_us != e.time_us)
    t.graph_exec_us = e.graph_us - std::min(e.graph_us, gpu.launch().graph_kernel_us);
  KernelTiming k;
  k.name = "nccl " + t.option + " " + std::to_string(system.nccl.channels) + " channels";
  k.exec_us = t.exec_us;
  k.waves = e.sm_share;
  k.blocks_per_sm = 1;
  k.memory_us = std::min(t.exec_us, e.transfer_us);
  k.latency_us = t.exec_us - k.memory_us;
  k.dram_bytes = e.dram_bytes;
  t.kernels.push_back(k);
  t.holds_sms = true;
  t.dram_bytes = e.dram_bytes;
  t.flops = 0;
  t.bound = e.transfer_us >= std::max(e.fixed_us, e.latency_us) ? Bound::memory : Bound::latency;
  return t;
}

}  // namespace gpucast::sim
