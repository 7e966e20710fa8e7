#include "hardware/key_schema.h"

#include <algorithm>
#include <cstdio>

namespace gpucast::hw {
namespace {
using K = ValueKind;
using R = Rule;
constexpr bool kReq = true;
constexpr bool kOpt = false;

// Strings: names and dates are short; free text may be longer.
constexpr std::size_t kMaxText = 4096;
constexpr std::size_t kMaxFreeText = 65536;

double unit_min(const KeyDef& k) {
  for (const auto& r : unit_ranges())
    if (r.unit == k.unit) return r.min;
  return 1e-3;
}
double unit_max(const KeyDef& k) {
  for (const auto& r : unit_ranges())
    if (r.unit == k.unit) return r.max;
  return 1e6;
}

}  // namespace

std::vector<KeyDef> with_ranges(std::vector<KeyDef> keys) {
  for (auto& k : keys) {
    if (k.kind == ValueKind::string) {
      const bool free_text = k.path == "notes" || k.path == "price.note" || k.path.rfind("calibration.", 0) == 0 ||
                             k.path == "source";
      k.max_length = free_text ? kMaxFreeText : kMaxText;
      continue;
    }
    k.max = unit_max(k);
    k.min = k.rule == Rule::non_negative ? 0 : unit_min(k);
    if (k.rule == Rule::fraction) k.max = 1;
  }
  return keys;
}

const std::vector<UnitRange>& unit_ranges() {
  static const std::vector<UnitRange> kRanges{
      {"SMs", 1, 10000},        {"MHz", 1, 100000},        {"threads", 1, 65536},  {"blocks", 1, 65536},
      {"KB", 1e-3, 1e6},        {"TFLOP/s", 1e-6, 1e6},    {"Tops/s", 1e-6, 1e6},  {"TOPS", 1e-6, 1e6},
      {"GB", 1e-6, 1e6},        {"bits", 1, 65536},        {"GB/s", 1e-3, 1e7},    {"MB", 1e-3, 1e6},
      {"cycles", 1e-3, 1e7},    {"us", 1e-6, 1e6},         {"blocks/us", 1e-6, 1e9}, {"W", 1e-3, 1e6},
      {"USD", 1e-2, 1e9},       {"fraction", 1e-6, 1},     {"GPUs", 1, 100000},    {"USD/h", 1e-6, 1e7},
      {"B/clk", 1e-6, 1e6},     {"ops/clk", 1e-6, 1e6},    {"x", 1e-6, 1e6},       {"nodes", 1, 100000},
      {"NICs", 1, 1024},        {"Gb/s", 1e-3, 1e7},       {"bytes", 1, 1e15},     {"0/1", 1, 1},
  };
  return kRanges;
}

std::string range_text(const KeyDef& def) {
  if (def.kind == ValueKind::string) return "at most " + std::to_string(def.max_length) + " bytes";
  auto num = [](double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", v);
    return std::string(buf);
  };
  std::string unit = def.unit.empty() || def.unit == "fraction" ? "" : " " + std::string(def.unit);
  if (def.rule == Rule::fraction) return "in (0, 1]";
  return "in [" + num(def.min) + ", " + num(def.max) + "]" + unit;
}

const std::vector<KeyDef>& gpu_keys() {
  static const std::vector<KeyDef> kKeys = with_ranges({
      {"name", K::string, "", kReq, R::none, "product name"},
      {"vendor", K::string, "", kReq, R::none, "vendor, e.g. NVIDIA"},
      {"architecture", K::string, "", kReq, R::none,
       "architecture family; selects hardware/catalog/architectures/<architecture>.toml defaults"},
      {"compute_capability", K::string, "", kReq, R::none,
       "CUDA compute capability, e.g. \"9.0\"; AMD GPUs give their gfx target, e.g. \"gfx942\""},
      {"extends", K::string, "", kOpt, R::none, "catalog id or .toml path to inherit from, then override"},
      {"notes", K::string, "", kOpt, R::none, "free text"},

      {"sm.count", K::integer, "SMs", kReq, R::positive, "streaming multiprocessors"},
      {"sm.boost_clock_mhz", K::number, "MHz", kReq, R::positive, "maximum boost SM clock"},
      {"sm.sustained_clock_mhz", K::number, "MHz", kOpt, R::positive,
       "SM clock held under sustained load (default: boost_clock_mhz); converts cycle latencies to time"},
      {"sm.warp_size", K::integer, "threads", kOpt, R::positive,
       "threads that execute together: 32 per NVIDIA warp, 64 per AMD CDNA wavefront (default from the "
       "architecture)"},
      {"sm.max_threads", K::integer, "threads", kReq, R::positive, "resident threads per SM"},
      {"sm.max_blocks", K::integer, "blocks", kReq, R::positive, "resident thread blocks per SM"},
      {"sm.registers_kb", K::number, "KB", kReq, R::positive, "register file per SM"},
      {"sm.shared_memory_kb", K::number, "KB", kReq, R::positive,
       "maximum configurable shared memory per SM"},
      {"sm.register_allocation_unit", K::integer, "registers", kOpt, R::positive,
       "registers are allocated to a warp in multiples of this many; default from the architecture"},
      {"sm.shared_memory_reserved_per_block_bytes", K::integer, "bytes", kOpt, R::non_negative,
       "shared memory the driver reserves for each resident block; default from the architecture"},
      {"sm.simt_lanes", K::integer, "lanes", kOpt, R::positive,
       "SIMT lane-instructions one SM issues per clock (sub-partitions x 32); default from the architecture"},

      {"compute.fp32_tflops", K::number, "TFLOP/s", kReq, R::positive, "FP32 (non-tensor) FMA peak"},
      {"compute.fp64_tflops", K::number, "TFLOP/s", kReq, R::positive,
       "FP64 peak (tensor-core FP64 where the GPU has it)"},
      {"compute.sfu_tops", K::number, "Tops/s", kOpt, R::positive,
       "special-function unit throughput (exp, rsqrt); default from the architecture's ops per clock per SM"},
      {"compute.tensor_tile_rows", K::integer, "rows", kOpt, R::positive,
       "rows of the narrowest tensor-core instruction tile a library kernel issues efficiently; default from "
       "the "
       "architecture"},
      {"compute.tensor_tflops.tf32", K::number, "TFLOP/s", kOpt, R::positive, "dense TF32 tensor-core peak"},
      {"compute.tensor_tflops.fp16", K::number, "TFLOP/s", kOpt, R::positive,
       "dense FP16 tensor-core peak with FP32 accumulation"},
      {"compute.tensor_tflops.bf16", K::number, "TFLOP/s", kOpt, R::positive,
       "dense BF16 tensor-core peak with FP32 accumulation"},
      {"compute.tensor_tflops.fp8", K::number, "TFLOP/s", kOpt, R::positive,
       "dense FP8 tensor-core peak with FP32 accumulation"},
      {"compute.tensor_tflops.int8", K::number, "TOPS", kOpt, R::positive, "dense INT8 tensor-core peak"},
      {"compute.tensor_tflops.fp6", K::number, "TFLOP/s", kOpt, R::positive,
       "dense FP6 (MXFP6, block-scaled) tensor-core peak"},
      {"compute.tensor_tflops.fp4", K::number, "TFLOP/s", kOpt, R::positive,
       "dense FP4 (NVFP4 / MXFP4, block-scaled) tensor-core peak"},

      {"memory.capacity_gb", K::number, "GB", kReq, R::positive, "device memory capacity (10^9 bytes)"},
      {"memory.type", K::string, "", kReq, R::none, "memory technology, e.g. HBM3"},
      {"memory.bus_width_bits", K::integer, "bits", kReq, R::positive, "memory bus width"},
      {"memory.data_rate_gbps", K::number, "Gbit/s", kOpt, R::positive,
       "data rate per pin; bandwidth_gbps should be bus_width_bits / 8 x data_rate_gbps (the catalog test "
       "checks 5%)"},
      {"memory.bandwidth_gbps", K::number, "GB/s", kReq, R::positive, "peak DRAM bandwidth (10^9 bytes/s)"},
      {"memory.sm_bandwidth_gbps", K::number, "GB/s", kOpt, R::positive,
       "most DRAM bandwidth one SM can draw (its outstanding-miss limit); default from the architecture"},

      {"cache.l2_mb", K::number, "MB", kReq, R::positive, "L2 cache size"},
      {"cache.l1_kb_per_sm", K::number, "KB", kReq, R::positive, "combined L1/shared storage per SM"},
      {"cache.l2_bandwidth_gbps", K::number, "GB/s", kOpt, R::positive,
       "L2-to-SM bandwidth (default from the architecture's bytes per clock per SM)"},
      {"cache.l2_reuse_fraction", K::number, "fraction", kOpt, R::fraction,
       "share of the L2 a reused working set can occupy before it is evicted; default from the architecture"},
      {"cache.l2_dirty_fraction", K::number, "fraction", kOpt, R::fraction,
       "share of the L2 left holding dirty lines after a long write stream (what a stream that follows "
       "must write back); default from the architecture"},
      {"cache.sm_l2_bandwidth_gbps", K::number, "GB/s", kOpt, R::positive,
       "most L2 bandwidth one SM can draw (its L1 fill port); default from the architecture"},
      {"cache.infinity_cache_mb", K::number, "MB", kOpt, R::non_negative,
       "memory-side cache between L2 and DRAM (AMD Infinity Cache, \"MALL\"); absent or 0: none"},
      {"cache.infinity_cache_bandwidth_gbps", K::number, "GB/s", kOpt, R::positive,
       "peak bandwidth of the memory-side cache"},

      {"latency.dram_cycles", K::number, "cycles", kReq, R::positive, "DRAM load latency (pointer chase)"},
      {"latency.l2_cycles", K::number, "cycles", kReq, R::positive, "L2 hit latency (pointer chase)"},
      {"latency.l1_cycles", K::number, "cycles", kReq, R::positive, "L1 hit latency (pointer chase)"},
      {"latency.shared_cycles", K::number, "cycles", kReq, R::positive, "shared-memory load latency"},
      {"latency.first_touch_us", K::number, "us", kOpt, R::positive,
       "extra time of a kernel's first DRAM access after an L2 flush (TLB walk and DRAM); default from the "
       "architecture"},

      {"launch.kernel_us", K::number, "us", kReq, R::positive,
       "GPU-side cost of one kernel launch: an empty kernel timed with events, launches queued"},
      {"launch.host_eager_us", K::number, "us", kOpt, R::positive,
       "host time to issue one kernel from an eager framework (default from architecture file)"},
      {"launch.host_library_us", K::number, "us", kOpt, R::non_negative,
       "extra host time of an eager library op (GEMM, attention, convolution, norm, embedding) over a "
       "pointwise "
       "one: framework dispatch and library setup (default from architecture file)"},
      {"launch.host_attention_decode_us", K::number, "us", kOpt, R::non_negative,
       "host time of an eager decode-attention call (the library's split-KV path) per call; default from the "
       "architecture file"},
      {"launch.blocks_per_us", K::number, "blocks/us", kOpt, R::positive,
       "thread blocks the GPU's work distributor starts per microsecond (default from architecture file)"},
      {"launch.queued_kernel_us", K::number, "us", kOpt, R::positive,
       "GPU-side cost of each further kernel queued back to back on a stream (default from architecture "
       "file)"},
      {"launch.graph_kernel_us", K::number, "us", kOpt, R::positive,
       "GPU-side cost per kernel inside a CUDA graph replay (default from architecture file)"},

      {"host.pcie_gbps", K::number, "GB/s", kReq, R::positive,
       "host link bandwidth per direction (PCIe, or NVLink-C2C on Grace superchips)"},
      {"host.link", K::string, "", kOpt, R::none,
       "what the host link is, e.g. \"PCIe 5.0 x16\" or \"NVLink-C2C\""},
      {"host.transfer_latency_us", K::number, "us", kOpt, R::positive,
       "fixed cost of one host<->device copy on the copy engine (default from architecture file)"},
      {"host.inline_copy_max_bytes", K::number, "B", kOpt, R::non_negative,
       "largest host-to-device copy the driver writes into the command stream instead of starting the "
       "copy engine (default from architecture file; 0 or absent: none)"},
      {"interconnect.nvlink_gbps", K::number, "GB/s", kReq, R::non_negative,
       "GPU-to-GPU link bandwidth per GPU (NVLink, AMD Infinity Fabric), both directions summed (0: none)"},

      {"power.tdp_w", K::number, "W", kReq, R::positive, "board power (TDP / TGP)"},
      {"power.idle_w", K::number, "W", kOpt, R::positive, "idle board power"},
      {"power.matrix_clock_mhz", K::number, "MHz", kOpt, R::positive,
       "SM clock the board power limit (power.tdp_w) holds under back-to-back tensor-core work, at most "
       "sm.boost_clock_mhz (absent: no limiter)"},
      {"power.matrix_knee_share", K::number, "fraction", kOpt, R::fraction,
       "share of tensor-core work in the recent window up to which the power limit keeps the boost clock"},

      {"price.usd", K::number, "USD", kReq, R::positive, "typical price (see price.kind and price.date)"},
      {"price.launch_usd", K::number, "USD", kOpt, R::positive, "launch price (MSRP)"},
      {"price.kind", K::string, "", kOpt, R::none, "what price.usd is: list, street, launch or estimate"},
      {"price.date", K::string, "", kOpt, R::none, "when price.usd was observed, YYYY-MM"},
      {"price.note", K::string, "", kOpt, R::none, "free text about the price"},

      {"efficiency.dram_bandwidth", K::number, "fraction", kOpt, R::fraction,
       "share of memory.bandwidth_gbps a large streaming kernel sustains"},
      {"efficiency.dram_write_stream", K::number, "fraction", kOpt, R::fraction,
       "share of memory.bandwidth_gbps a stream of stores sustains where no reads interleave with them (a "
       "fill, do_bench's flush: no read-write turnarounds on the DRAM bus); never below dram_bandwidth"},
      {"efficiency.copy_engine", K::number, "fraction", kOpt, R::fraction,
       "share of memory.bandwidth_gbps a large device-to-device cudaMemcpy sustains (the copy engines, "
       "reading and writing)"},
      {"efficiency.l2_bandwidth", K::number, "fraction", kOpt, R::fraction,
       "share of cache.l2_bandwidth_gbps a kernel with an L2-resident working set sustains"},
      {"efficiency.fp32", K::number, "fraction", kOpt, R::fraction,
       "share of compute.fp32_tflops a large SIMT GEMM sustains"},
      {"efficiency.fp64", K::number, "fraction", kOpt, R::fraction,
       "share of compute.fp64_tflops a large FP64 GEMM sustains"},
      {"efficiency.sfu", K::number, "fraction", kOpt, R::fraction, "share of compute.sfu_tops sustained"},
      {"efficiency.tensor.tf32", K::number, "fraction", kOpt, R::fraction,
       "share of the dense TF32 peak a large library GEMM sustains"},
      {"efficiency.tensor.fp16", K::number, "fraction", kOpt, R::fraction, "same, FP16"},
      {"efficiency.tensor.bf16", K::number, "fraction", kOpt, R::fraction, "same, BF16"},
      {"efficiency.tensor.fp8", K::number, "fraction", kOpt, R::fraction, "same, FP8"},
      {"efficiency.tensor.int8", K::number, "fraction", kOpt, R::fraction, "same, INT8"},
      {"efficiency.tensor.fp6", K::number, "fraction", kOpt, R::fraction, "same, FP6"},
      {"efficiency.tensor.fp4", K::number, "fraction", kOpt, R::fraction, "same, FP4"},
      {"efficiency.mma_sync", K::number, "fraction", kOpt, R::fraction,
       "rate of the warp-level mma.sync path (FlashAttention-2 class kernels) relative to the dense peak"},
      {"efficiency.pcie", K::number, "fraction", kOpt, R::fraction,
       "share of host.pcie_gbps a pinned host<->device copy sustains"},
      {"efficiency.memory_parallelism", K::number, "fraction", kOpt, R::fraction,
       "pointer-chase latency over the latency that sets how many bytes must be in flight to stream"},

      {"calibration.gpu", K::string, "", kOpt, R::none, "the GPU a calibrated profile was measured on"},
      {"calibration.date", K::string, "", kOpt, R::none, "when it was measured"},
      {"calibration.driver", K::string, "", kOpt, R::none, "driver version at measurement"},
      {"calibration.cuda", K::string, "", kOpt, R::none, "CUDA runtime version at measurement"},
      {"calibration.measurements", K::string, "", kOpt, R::none, "the raw microbenchmark file the fit used"},
      {"calibration.fit", K::string, "", kOpt, R::none, "fit quality: residual of each least-squares fit"},
  });
  return kKeys;
}

const KeyDef* find_gpu_key(std::string_view path) {
  for (const auto& key : gpu_keys())
    if (key.path == path) return &key;
  return nullptr;
}

std::vector<std::string> gpu_key_names() {
  std::vector<std::string> names;
  for (const auto& key : gpu_keys()) {
    names.emplace_back(key.path);
    std::string_view path = key.path;
    for (size_t dot = path.find('.'); dot != std::string_view::npos; dot = path.find('.', dot + 1))
      names.emplace_back(path.substr(0, dot));
  }
  names.emplace_back("cloud");
  names.emplace_back("sources");
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return names;
}

bool is_gpu_section(std::string_view path) {
  for (const auto& key : gpu_keys())
    if (key.path.size() > path.size() && key.path.substr(0, path.size()) == path && key.path[path.size()] == '.')
      return true;
  return false;
}

const std::vector<KeyDef>& cloud_keys() {
  static const std::vector<KeyDef> kKeys = with_ranges({
      {"provider", K::string, "", kReq, R::none, "cloud provider, e.g. AWS"},
      {"instance", K::string, "", kReq, R::none, "instance type, e.g. p5.48xlarge"},
      {"gpus", K::integer, "GPUs", kReq, R::positive, "GPUs in the instance"},
      {"usd_per_hour", K::number, "USD/h", kReq, R::positive, "on-demand price of the whole instance"},
      {"spot_usd_per_hour", K::number, "USD/h", kOpt, R::positive, "spot / preemptible price of the instance"},
      {"region", K::string, "", kOpt, R::none, "region the price is for"},
      {"date", K::string, "", kOpt, R::none, "when the price was read, YYYY-MM"},
      {"source", K::string, "", kOpt, R::none, "where the price comes from"},
  });
  return kKeys;
}

const std::vector<KeyDef>& architecture_keys() {
  static const std::vector<KeyDef> kKeys = [] {
    std::vector<KeyDef> keys{
        {"architecture", K::string, "", kReq, R::none, "architecture family this file describes"},
        {"per_sm.l2_bytes_per_clk", K::number, "B/clk", kReq, R::positive,
         "L2-to-SM bandwidth per SM per clock (gives cache.l2_bandwidth_gbps)"},
        {"per_sm.sfu_ops_per_clk", K::number, "ops/clk", kReq, R::positive,
         "special-function results per SM per clock (gives compute.sfu_tops)"},
        {"per_sm.dram_bytes_per_clk", K::number, "B/clk", kReq, R::positive,
         "DRAM bytes one SM can draw per clock (gives memory.sm_bandwidth_gbps)"},
        {"per_sm.l1_fill_bytes_per_clk", K::number, "B/clk", kReq, R::positive,
         "L2-to-L1 fill bytes one SM can take per clock (gives cache.sm_l2_bandwidth_gbps)"},
        {"first_touch_dram_latencies", K::number, "x", kReq, R::positive,
         "first-touch time after an L2 flush in DRAM latencies (gives latency.first_touch_us)"},
    };
    for (const auto& key : gpu_keys()) {
      const bool defaultable =
          key.path.rfind("efficiency.", 0) == 0 || key.path == "launch.host_eager_us" ||
          key.path == "launch.host_library_us" || key.path == "launch.host_attention_decode_us" ||
          key.path == "launch.graph_kernel_us" || key.path == "launch.queued_kernel_us" ||
          key.path == "launch.blocks_per_us" || key.path == "sm.warp_size" ||
          key.path == "sm.register_allocation_unit" ||
          key.path == "sm.shared_memory_reserved_per_block_bytes" || key.path == "sm.simt_lanes" ||
          key.path == "compute.tensor_tile_rows" || key.path == "cache.l2_reuse_fraction" ||
          key.path == "cache.l2_dirty_fraction" || key.path == "host.transfer_latency_us" ||
          key.path == "host.inline_copy_max_bytes";
      if (defaultable) keys.push_back(key);
    }
    return with_ranges(keys);
  }();
  return kKeys;
}

std::string_view rule_text(Rule rule) {
  switch (rule) {
    case Rule::positive: return "must be > 0";
    case Rule::non_negative: return "must be >= 0";
    case Rule::fraction: return "must be in (0, 1]";
    default: return "";
  }
}

}  // namespace gpucast::hw
