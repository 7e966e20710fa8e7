#include "device/device.h"

#include <algorithm>

#include "common/errors.h"
#include "hardware/gpu_spec.h"

namespace gpucast::device {
namespace {
// Triton's do_bench (the timing method of every stored measurement) writes a 256 MB buffer to
// evict the L2 before each timed call (triton/testing.py, `cache_size = 256 * 1024 * 1024`).
constexpr Bytes kDoBenchFlushBytes = 256.0 * 1024 * 1024;
// Unit conversions: 1 GB/s = 1e9 B/s = 1e3 B/us; 1 TFLOP/s = 1e6 FLOP/us.
constexpr double kBytesPerUsPerGbps = 1e3;
constexpr double kFlopsPerUsPerTflops = 1e6;
}  // namespace

Device::Device(const hw::GpuSpec& g)
    : id_(g.id),
      name_(g.name),
      vendor_(g.vendor),
      architecture_(g.architecture),
      cc_major_(g.cc_major()),
      sms_(g.sm.count),
      clock_mhz_(g.sm.sustained_clock_mhz),
      simt_lanes_(g.sm.simt_lanes),
      tensor_tile_rows_(g.compute.tensor_tile_rows) {
  sm_.max_threads = g.sm.max_threads;
  sm_.max_blocks = g.sm.max_blocks;
  sm_.registers = static_cast<int>(g.sm.registers_kb * 1024 / 4);
  sm_.warp_size = g.sm.warp_size;
  sm_.register_allocation_unit = g.sm.register_allocation_unit;
  sm_.shared_bytes = g.sm.shared_memory_kb * 1024;
  sm_.shared_reserved_per_block_bytes = g.sm.shared_memory_reserved_per_block_bytes;

  const double us_per_cycle = 1.0 / clock_mhz_;
  rates_.dram = g.memory.bandwidth_gbps * kBytesPerUsPerGbps * g.efficiency.dram_bandwidth;
  rates_.dram_write_stream =
      std::max(rates_.dram, g.memory.bandwidth_gbps * kBytesPerUsPerGbps * g.efficiency.dram_write_stream);
  rates_.copy_engine = g.memory.bandwidth_gbps * kBytesPerUsPerGbps * g.efficiency.copy_engine;
  rates_.l2 = g.cache.l2_bandwidth_gbps * kBytesPerUsPerGbps * g.efficiency.l2_bandwidth;
  rates_.sm_dram = g.memory.sm_bandwidth_gbps * kBytesPerUsPerGbps;
  rates_.sm_l2 = g.cache.sm_l2_bandwidth_gbps * kBytesPerUsPerGbps;
  rates_.blocks_per_us = g.launch.blocks_per_us;
  rates_.simt_lanes_per_us = simt_lanes_ * clock_mhz_;
  rates_.sfu_per_us = g.compute.sfu_tops * kFlopsPerUsPerTflops / sms_ * g.efficiency.sfu;
  rates_.fp32_per_sm = g.compute.fp32_tflops * kFlopsPerUsPerTflops / sms_ * g.efficiency.fp32;
  rates_.fp64_per_sm = g.compute.fp64_tflops * kFlopsPerUsPerTflops / sms_ * g.efficiency.fp64;
  for (const auto& [t, tflops] : g.compute.tensor_tflops) {
    const double peak = tflops * kFlopsPerUsPerTflops / sms_;
    rates_.tensor_per_sm[t] = peak * g.tensor_efficiency(t);
    rates_.mma_sync_per_sm[t] = peak * g.efficiency.mma_sync;
    tensor_types_[t] = tflops;
  }

  // The latency that sets how much must be in flight to stream: the pointer-chase latency divided
  // by the share of it that overlaps (efficiency.memory_parallelism, fitted to the in-flight sweep).
  latency_.dram = g.latency.dram_cycles * us_per_cycle / g.efficiency.memory_parallelism;
  latency_.l2_round = g.latency.l2_cycles * us_per_cycle;

  launch_.cold_kernel_us = g.launch.kernel_us;
  launch_.queued_kernel_us = g.launch.queued_kernel_us;
  launch_.graph_kernel_us = g.launch.graph_kernel_us;
  launch_.first_touch_us = g.latency.first_touch_us;
  launch_.host_eager_us = g.launch.host_eager_us;
  launch_.host_library_us = g.launch.host_library_us;
  launch_.host_attention_decode_us = g.launch.host_attention_decode_us;
  launch_.graph_replay_us = g.launch.kernel_us;
  // do_bench's flush is a zero fill: a store-only stream.
  launch_.flush_us = kDoBenchFlushBytes / rates_.dram_write_stream;

  host_link_.rate = g.pcie_gbps * kBytesPerUsPerGbps * g.efficiency.pcie;
  host_link_.transfer_latency_us = g.host_transfer_latency_us;
  host_link_.inline_copy_max_bytes = g.host_inline_copy_max_bytes;

  l2_bytes_ = g.cache.l2_mb * 1024 * 1024;
  // A memory-side cache behind the L2 (AMD Infinity Cache; 0 on NVIDIA) serves reuse as well.
  memory_side_cache_bytes_ = g.cache.infinity_cache_mb * 1024 * 1024;
  l2_reuse_fraction_ = g.cache.l2_reuse_fraction;
  l2_dirty_fraction_ = g.cache.l2_dirty_fraction;
  if (g.power.matrix_clock_mhz)
    power_limiter_ = PowerLimiter{g.sm.boost_clock_mhz, *g.power.matrix_clock_mhz, g.power.matrix_knee_share};
}

Device Device::at_matrix_share(double share) const {
  Device d = *this;
  d.matrix_share_ = share;
  d.matrix_clock_factor_ = device::matrix_clock_factor(power_limiter_, share);
  return d;
}

int Device::blocks_per_sm(const BlockResources& block, const std::string& kernel) const {
  const Occupancy o = occupancy(block);
  if (o.blocks_per_sm < 1)
    throw UnsupportedError("kernel '" + kernel + "' does not fit on one SM of " + id_ + " (" +
                           std::to_string(block.threads) + " threads, " +
                           std::to_string(block.registers_per_thread) + " registers, " +
                           std::to_string(static_cast<long long>(block.shared_bytes)) + " B shared memory)");
  return o.blocks_per_sm;
}

double Device::l2_hit_fraction(Bytes working_set) const {
  return std::min(1.0, l2_reuse_bytes() / std::max(1.0, working_set));
}

void Device::require_tensor(DataType t) const {
  if (!has_tensor(t))
    throw UnsupportedError("GPU '" + id_ + "' (" + name_ + ") has no " + std::string(to_string(t)) +
                           " tensor-core rate (compute.tensor_tflops." + std::string(to_string(t)) +
                           " is absent): it cannot run " + std::string(to_string(t)) + " matrix math");
}

FlopsPerUs Device::pipe_rate(Pipe pipe, DataType dtype) const {
  switch (pipe) {
    case Pipe::fp32:
      return rates_.fp32_per_sm;
    case Pipe::fp64:
      return rates_.fp64_per_sm;
    case Pipe::tensor:
    case Pipe::mma_sync: {
      const auto& table = pipe == Pipe::tensor ? rates_.tensor_per_sm : rates_.mma_sync_per_sm;
      auto it = table.find(dtype);
      if (it == table.end())
        throw UnsupportedError(id_ + " has no " + std::string(to_string(dtype)) + " tensor-core rate");
      return it->second;
    }
    default:
      return 0;
  }
}

FlopsPerUs Device::tensor_peak_per_sm(DataType dtype) const {
  require_tensor(dtype);
  return tensor_types_.at(dtype) * kFlopsPerUsPerTflops / sms_;
}

}  // namespace gpucast::device
