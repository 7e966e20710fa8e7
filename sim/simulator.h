#pragma once
// The simulator's front door: a GPU and a workload in, per-kernel standalone durations and the
// workload's timeline out.
#include <array>
#include <map>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "hardware/host_spec.h"
#include "sim/host_timeline.h"
#include "sim/op_cache_key.h"
#include "sim/op_predictor.h"
#include "sim/speed_of_light.h"
#include "sim/timeline.h"
#include "workloads/workload.h"

namespace gpucast::sim {

// The op, shape and pipe text is shared per distinct op: it lives in the Simulator (as `timing`
// does), so keep the simulator alive while using a prediction.
struct KernelPrediction {
  std::string name;
  std::string_view op;     // family as written in workload files
  std::string_view shape;  // human-readable parameters
  std::string_view sol_pipe;  // the pipe its speed of light is measured against (sim/speed_of_light.h)
  const OpTiming* timing = nullptr;  // standalone prediction (owned by the Simulator's cache)
  ScheduledKernel scheduled;
  Microseconds host_begin_us = 0;  // when the host starts this kernel's host work
  int stream = 0;
  std::uint32_t host_split = 0;  // its host time per category: Prediction::host_cost()
};

struct Prediction {
  std::string gpu;
  std::string system;  // empty for a single GPU
  std::string workload;
  wl::LaunchMode launch = wl::LaunchMode::eager;
  Microseconds total_us = 0;
  Microseconds gpu_busy_us = 0;
  Microseconds host_us = 0;        // when the host has issued (and synchronized) everything
  std::string host;                // host description id
  Microseconds host_busy_us = 0;   // host working: framework, launches, delays
  Microseconds host_stall_us = 0;  // host waiting in synchronizations
  Microseconds host_delay_us = 0;  // explicit host delays (part of host_busy_us)
  int syncs = 0;
  HostSplit host_by_category{};
  Microseconds host_sync_wait_us = 0;  // host waiting for the GPU at sync points (replayed traces)
  std::vector<KernelPrediction> kernels;
  std::vector<HostSplit> host_splits{HostSplit{}};  // the distinct per-kernel host splits
  // Kernel k's host time per category (stored once per distinct split).
  [[nodiscard]] const HostSplit& host_cost(const KernelPrediction& k) const { return host_splits[k.host_split]; }
  double flops = 0;       // useful FLOPs of all kernels
  double dram_bytes = 0;  // predicted DRAM traffic of all kernels
  [[nodiscard]] Microseconds gpu_idle_us() const { return total_us - gpu_busy_us; }
  // The host needs longer to issue the work than the GPU to run it: a faster GPU would not help.
  [[nodiscard]] bool host_bound() const { return host_busy_us > gpu_busy_us; }
  // The step's time split per op family and per bound, microseconds, summing to total_us: each
  // kernel's scheduled span (overlaps split) plus "host" for GPU idle (sim/time_attribution.h).
  [[nodiscard]] std::map<std::string, Microseconds> time_by_op() const;
  [[nodiscard]] std::map<std::string, Microseconds> time_by_bound() const;
};

class Simulator {
 public:
  // Without a host description the host is priced from the device's eager launch costs
  // (sim::host_from_launch: the flat per-kernel charge).
  explicit Simulator(device::Device gpu);
  // One rank of a multi-GPU system: the workload is that rank's work; collectives are timed on the
  // system's fabric. Without a host description the host is priced as for one GPU (the device's
  // eager launch costs); with one, every rank's host is that host.
  explicit Simulator(const hw::SystemSpec& system);
  Simulator(const hw::SystemSpec& system, hw::HostSpec host);
  [[nodiscard]] const hw::SystemSpec* system() const { return standalone_.predictor.system(); }
  Simulator(device::Device gpu, hw::HostSpec host);
  [[nodiscard]] const device::Device& device() const { return standalone_.predictor.device(); }
  [[nodiscard]] const hw::HostSpec& host() const { return host_; }
  // The Prediction points into this simulator's cache: keep the simulator alive while using it.
  [[nodiscard]] Prediction predict(const wl::Workload& w);
  [[nodiscard]] const OpTiming& predict_op(const wl::Op& op) { return standalone_.predictor.predict(op); }

 private:
  // Timings of kernels that find an input warm in the L2 (sim/warm_l2.h), by consumer and what it
  // finds there: bytes read and kept written, and the share of its dependent loads that hit
  // (negative when its warm input is not all it reads).
  using WarmKey = std::pair<wl::Op, std::array<double, 3>>;
  struct WarmKeyHash {
    std::size_t operator()(const WarmKey& k) const {
      return OpHash{}(k.first) * 1000003u ^ std::hash<double>{}(k.second[0]) * 31u ^
             std::hash<double>{}(k.second[1]) * 7u ^ std::hash<double>{}(k.second[2]);
    }
  };
  struct WarmKeyEqual {
    bool operator()(const WarmKey& a, const WarmKey& b) const {
      return OpEqual{}(a.first, b.first) && a.second == b.second;
    }
  };
  using WarmCache = std::unordered_map<WarmKey, OpTiming, WarmKeyHash, WarmKeyEqual>;
  // One timing of every op: standalone (do_bench) first, then per window matrix share (the power
  // limiter's clock for the step, device/power_limiter.h).
  struct Pass {
    OpPredictor predictor;
    WarmCache warm;
  };
  // Each op's timing in `pass`, warm-L2 consumers included, into `ops`.
  void time_ops(const wl::Workload& w, Pass& pass, std::vector<const OpTiming*>& ops);
  // The pass that times GEMMs at the power limiter's clock for a window whose matrix share is `share`.
  [[nodiscard]] Pass& limited_pass(double share);

  Pass standalone_;
  std::map<long, Pass> limited_;  // by matrix share in thousandths
  hw::HostSpec host_;
  // Text of each distinct timing's op (KernelPrediction's views point here).
  struct Label {
    std::string op, shape, sol_pipe;
  };
  std::unordered_map<const OpTiming*, Label> labels_;
};

}  // namespace gpucast::sim
