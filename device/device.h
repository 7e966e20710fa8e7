#pragma once
// The one view of a GPU that op models, the kernel timer and the timeline read. Built once from a
// resolved description (hw::GpuSpec); it owns every unit conversion (GB/s -> bytes/us, TFLOP/s ->
// FLOP/us per SM, cycles -> us), the occupancy rule, the L2 capacity rule and the launch and host
// costs. Nothing under models/ or sim/ reads the description itself.
#include <map>
#include <optional>
#include <string>

#include "common/dtype.h"
#include "device/launch_costs.h"
#include "device/occupancy.h"
#include "device/pipe.h"
#include "device/power_limiter.h"
#include "device/units.h"

namespace gpucast::hw {
struct GpuSpec;
}

namespace gpucast::device {

// Sustained rates, whole GPU unless the name says per SM.
struct Rates {
  BytesPerUs dram = 0;           // sustained DRAM bandwidth
  BytesPerUs dram_write_stream = 0;  // stores no reads interleave with (a fill): no bus turnarounds
  BytesPerUs copy_engine = 0;    // a device-to-device memcpy's sustained rate (each byte read and written)
  BytesPerUs l2 = 0;             // sustained L2-to-SM bandwidth
  BytesPerUs sm_dram = 0;        // the most one SM draws from DRAM
  BytesPerUs sm_l2 = 0;          // the most one SM draws from L2
  double blocks_per_us = 0;      // thread-block dispatch rate of the work distributor
  double simt_lanes_per_us = 0;  // SIMT lane-instructions per SM
  double sfu_per_us = 0;         // special-function results per SM
  FlopsPerUs fp32_per_sm = 0;
  FlopsPerUs fp64_per_sm = 0;
  std::map<DataType, FlopsPerUs> tensor_per_sm;    // wgmma / library path, sustained
  std::map<DataType, FlopsPerUs> mma_sync_per_sm;  // warp-level mma.sync path, sustained
};

struct Latencies {
  Microseconds dram = 0;      // unloaded DRAM round trip as streams see it (Little's-law latency)
  Microseconds l2_round = 0;  // one dependent L2 round trip
};

// The copy engines' host link.
struct HostLink {
  BytesPerUs rate = 0;  // sustained pinned-copy rate
  Microseconds transfer_latency_us = 0;
  // Host-to-device copies up to this size travel inside the command stream (no copy-engine setup).
  double inline_copy_max_bytes = 0;
};

class Device {
 public:
  // Implicit: a simulator or predictor can be built straight from a description.
  Device(const hw::GpuSpec& gpu);  // NOLINT(google-explicit-constructor)

  [[nodiscard]] const std::string& id() const { return id_; }
  [[nodiscard]] const std::string& name() const { return name_; }
  [[nodiscard]] const std::string& vendor() const { return vendor_; }
  [[nodiscard]] const std::string& architecture() const { return architecture_; }
  // Major compute capability (9 for Hopper): which instructions and library kernels exist.
  [[nodiscard]] int cc_major() const { return cc_major_; }

  [[nodiscard]] int sms() const { return sms_; }
  [[nodiscard]] double clock_mhz() const { return clock_mhz_; }  // sustained: cycles per microsecond
  [[nodiscard]] Microseconds cycles_to_us(Cycles c) const { return c / clock_mhz_; }
  [[nodiscard]] int warp_size() const { return sm_.warp_size; }
  [[nodiscard]] int simt_lanes() const { return simt_lanes_; }
  [[nodiscard]] int tensor_tile_rows() const { return tensor_tile_rows_; }
  [[nodiscard]] const SmLimits& sm_limits() const { return sm_; }
  [[nodiscard]] double shared_bytes_per_sm() const { return sm_.shared_bytes; }
  // Shared memory one block may use: the SM's less the driver's per-block reserve.
  [[nodiscard]] double shared_bytes_per_block() const {
    return sm_.shared_bytes - sm_.shared_reserved_per_block_bytes;
  }

  [[nodiscard]] const Rates& rates() const { return rates_; }
  [[nodiscard]] const Latencies& latency() const { return latency_; }
  [[nodiscard]] const LaunchCosts& launch() const { return launch_; }
  [[nodiscard]] const HostLink& host_link() const { return host_link_; }

  // Occupancy of one block of a kernel; blocks_per_sm is 0 when one block does not fit.
  [[nodiscard]] Occupancy occupancy(const BlockResources& block) const {
    return device::occupancy(block, sm_);
  }
  // Resident blocks per SM; throws UnsupportedError naming `kernel` when one block does not fit.
  [[nodiscard]] int blocks_per_sm(const BlockResources& block, const std::string& kernel) const;

  // How L2 reuse works: a working set reused while it is read keeps its lines while it fits in
  // the share of the L2 that a reused set can hold (cache.l2_reuse_fraction); beyond that a
  // reread finds that share of it and fetches the rest from DRAM again.
  [[nodiscard]] Bytes l2_bytes() const { return l2_bytes_; }
  // The Infinity Cache behind an AMD L2 holds reused sets too, at the same reuse share.
  [[nodiscard]] Bytes l2_reuse_bytes() const { return (l2_bytes_ + memory_side_cache_bytes_) * l2_reuse_fraction_; }
  // The dirty lines a long write stream (do_bench's flush, a step's earlier outputs) leaves in the
  // L2 and later reads evict and write back (cache.l2_dirty_fraction; models/l2_writeback.h).
  [[nodiscard]] Bytes l2_dirty_bytes() const { return l2_lines_bytes() * l2_dirty_fraction_; }
  [[nodiscard]] double l2_dirty_fraction() const { return l2_dirty_fraction_; }
  // Every line of the L2 and a memory-side cache behind it: what a stream's allocations replace.
  [[nodiscard]] Bytes l2_lines_bytes() const { return l2_bytes_ + memory_side_cache_bytes_; }
  [[nodiscard]] bool fits_in_l2(Bytes working_set) const { return working_set <= l2_reuse_bytes(); }
  [[nodiscard]] double l2_hit_fraction(Bytes working_set) const;

  [[nodiscard]] bool has_tensor(DataType t) const { return tensor_types_.count(t) > 0; }
  // Throws UnsupportedError when the GPU has no tensor cores for `t`.
  void require_tensor(DataType t) const;
  // Per-SM sustained rate of `pipe` for `dtype`; throws UnsupportedError when the GPU lacks it.
  [[nodiscard]] FlopsPerUs pipe_rate(Pipe pipe, DataType dtype) const;
  // Per-SM nominal (datasheet) tensor-core rate for `dtype`, before any efficiency; throws
  // UnsupportedError when the GPU lacks it.
  [[nodiscard]] FlopsPerUs tensor_peak_per_sm(DataType dtype) const;

  // The board power limiter under tensor-core work (device/power_limiter.h); none where the
  // description gives no power.matrix_clock_mhz.
  [[nodiscard]] const std::optional<PowerLimiter>& power_limiter() const { return power_limiter_; }
  // The share of tensor-core work in the window this view times GEMMs in. No value: a standalone op
  // as do_bench times it, whose share the op predictor derives from the flush between calls.
  [[nodiscard]] std::optional<double> matrix_share() const { return matrix_share_; }
  // This view inside a window whose matrix share is `share`.
  [[nodiscard]] Device at_matrix_share(double share) const;
  // Tensor-core GEMM rate relative to the fitted one: the fitted GEMM efficiency holds at full
  // matrix duty (back to back, the limited clock), and less matrix work leaves a higher clock.
  [[nodiscard]] double matrix_clock_factor() const { return matrix_clock_factor_; }

 private:
  std::string id_, name_, vendor_, architecture_;
  int cc_major_ = 0;
  int sms_ = 0;
  double clock_mhz_ = 0;
  int simt_lanes_ = 128;
  int tensor_tile_rows_ = 64;
  SmLimits sm_;
  Rates rates_;
  Latencies latency_;
  LaunchCosts launch_;
  HostLink host_link_;
  Bytes l2_bytes_ = 0;
  Bytes memory_side_cache_bytes_ = 0;
  double l2_reuse_fraction_ = 1;
  double l2_dirty_fraction_ = 0;
  std::map<DataType, double> tensor_types_;
  std::optional<PowerLimiter> power_limiter_;
  std::optional<double> matrix_share_;
  double matrix_clock_factor_ = 1;
};

}  // namespace gpucast::device
