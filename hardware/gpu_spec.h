#pragma once
// The resolved description of one GPU, in the units its TOML keys name. Built by hw::Catalog after
// `extends`, --set overrides and architecture defaults have been applied and every rule checked.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "common/dtype.h"
#include "common/toml_source.h"

namespace gpucast::hw {

struct SmSpec {
  int count = 0;
  double boost_clock_mhz = 0;
  double sustained_clock_mhz = 0;  // clock used to turn cycles into time
  int max_threads = 0;             // per SM
  int max_blocks = 0;              // per SM
  double registers_kb = 0;         // per SM
  double shared_memory_kb = 0;     // max configurable per SM
  int warp_size = 32;                       // threads per warp (wavefront on AMD)
  int register_allocation_unit = 256;       // registers per warp are allocated in multiples of this
  int shared_memory_reserved_per_block_bytes = 1024;  // driver reserve per resident block
  int simt_lanes = 128;                     // lane-instructions issued per SM per clock
};

struct ComputeSpec {
  double fp32_tflops = 0;
  double fp64_tflops = 0;
  double sfu_tops = 0;
  int tensor_tile_rows = 64;  // narrowest efficient tensor-core tile side (wgmma: 64 rows)
  std::map<DataType, double> tensor_tflops;  // dense rates; a type the GPU lacks is absent
};

struct MemorySpec {
  double capacity_gb = 0;
  std::string type;
  int bus_width_bits = 0;
  double bandwidth_gbps = 0;     // GB/s = 1e9 bytes/s
  double sm_bandwidth_gbps = 0;  // the most one SM can draw
};

struct CacheSpec {
  double l2_mb = 0;
  double l1_kb_per_sm = 0;
  double l2_bandwidth_gbps = 0;
  double sm_l2_bandwidth_gbps = 0;  // the most one SM can draw from L2
  double infinity_cache_mb = 0;     // memory-side cache between L2 and DRAM (AMD Infinity Cache); 0: none
  double infinity_cache_bandwidth_gbps = 0;
  double l2_reuse_fraction = 0.7;   // share of the L2 a reused working set keeps
  double l2_dirty_fraction = 0.59;  // share of the L2 dirty after a long write stream
};

struct LatencySpec {
  double dram_cycles = 0;
  double l2_cycles = 0;
  double l1_cycles = 0;
  double shared_cycles = 0;
  double first_touch_us = 0;  // extra time of a kernel's first DRAM access after an L2 flush
};

struct LaunchSpec {
  double kernel_us = 0;        // GPU-side, per kernel, launches queued (do_bench of an empty kernel)
  double host_eager_us = 0;    // host CPU time per kernel in eager mode
  double host_library_us = 0;  // extra host time of a library op (GEMM, attention, norm, ...) in eager mode
  double host_attention_decode_us = 0;  // host time of the library's decode-attention path per call
  double graph_kernel_us = 0;   // GPU-side per kernel in a CUDA graph replay
  double queued_kernel_us = 0;  // GPU-side per further kernel queued back to back
  double blocks_per_us = 0;     // thread blocks started per microsecond, whole GPU
};

struct PowerSpec {
  double tdp_w = 0;  // the board power limit
  std::optional<double> idle_w;
  // The power limiter under tensor-core work (device/power_limiter.h): the SM clock at full matrix
  // duty, and the matrix share up to which the boost clock holds. No value: no limiter modelled.
  std::optional<double> matrix_clock_mhz;
  double matrix_knee_share = 1;
};

struct PriceSpec {
  double usd = 0;
  std::optional<double> launch_usd;
  std::string kind;  // list | street | launch | estimate
  std::string date;  // YYYY-MM
  std::string note;
};

struct CloudOffer {
  std::string provider;
  std::string instance;
  int gpus = 1;
  double usd_per_hour = 0;  // whole instance
  std::optional<double> spot_usd_per_hour;
  std::string region;
  std::string date;
  std::string source;

  [[nodiscard]] double usd_per_gpu_hour() const { return usd_per_hour / gpus; }
  [[nodiscard]] std::optional<double> spot_usd_per_gpu_hour() const {
    if (!spot_usd_per_hour) return std::nullopt;
    return *spot_usd_per_hour / gpus;
  }
};

// Achievable fractions of the peaks above; calibration fits them, architecture files default them.
struct EfficiencySpec {
  double dram_bandwidth = 0;
  double dram_write_stream = 0;  // a store-only stream's rate over memory.bandwidth_gbps (no turnarounds)
  double copy_engine = 0;  // device-to-device cudaMemcpy rate over memory.bandwidth_gbps
  double l2_bandwidth = 0;
  double fp32 = 0;
  double fp64 = 0;
  double sfu = 0;
  std::map<DataType, double> tensor;
  double mma_sync = 0;
  double pcie = 0;
  double memory_parallelism = 0;
};

struct GpuSpec {
  std::string id;      // catalog id or file stem
  std::string origin;  // file the description was loaded from
  std::string name;
  std::string vendor;
  std::string architecture;
  std::string compute_capability;

  SmSpec sm;
  ComputeSpec compute;
  MemorySpec memory;
  CacheSpec cache;
  LatencySpec latency;
  LaunchSpec launch;
  double pcie_gbps = 0;                 // host link bandwidth per direction (PCIe or NVLink-C2C)
  std::string host_link;                // "PCIe 5.0 x16", "NVLink-C2C", ...
  double host_transfer_latency_us = 0;  // fixed cost of one host<->device copy
  double host_inline_copy_max_bytes = 0;  // host-to-device copies up to this size skip the copy engine
  double nvlink_gbps = 0;
  PowerSpec power;
  PriceSpec price;
  std::vector<CloudOffer> cloud;
  EfficiencySpec efficiency;

  FlatTable values;                            // every resolved scalar key with where it came from
  std::map<std::string, std::string> sources;  // key path or section -> source text

  [[nodiscard]] bool has_tensor(DataType t) const { return compute.tensor_tflops.count(t) > 0; }
  // Dense tensor-core rate for `t`; throws UnsupportedError when the GPU lacks it.
  [[nodiscard]] double tensor_tflops(DataType t) const;
  // Sustained fraction of the tensor rate for `t` (large GEMM).
  [[nodiscard]] double tensor_efficiency(DataType t) const;
  // Major compute capability (9 for Hopper): which instructions and library kernels exist. 0 for
  // a GPU without a CUDA compute capability (AMD: compute_capability holds the gfx target).
  [[nodiscard]] int cc_major() const;
  [[nodiscard]] bool is_amd() const { return compute_capability.rfind("gfx", 0) == 0; }
  // Nanoseconds per SM clock at the sustained clock.
  [[nodiscard]] double ns_per_cycle() const { return 1e3 / sm.sustained_clock_mhz; }
};

}  // namespace gpucast::hw
