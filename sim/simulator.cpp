#include "sim/simulator.h"

#include <cmath>
#include <unordered_map>

#include "common/huge_pages.h"
#include "sim/host_schedule.h"
#include "sim/l2_dirty_state.h"
#include "sim/time_attribution.h"
#include "sim/warm_l2.h"

namespace gpucast::sim {
namespace {
// Matrix shares are rounded to this step before a step is timed again at the power limiter's clock:
// steps whose shares round alike share one pass and its cache (the clock moves by under 1 MHz).
constexpr double kShareStep = 1e-3;
// The dirty share a kernel finds (sim/l2_dirty_state.h) is rounded to this step before its timing is
// looked up: kernels whose shares round alike share one timing.
constexpr double kDirtyShareStep = 0.02;
}  // namespace

std::map<std::string, Microseconds> Prediction::time_by_op() const {
  return attribute_time(*this).by_op;
}

std::map<std::string, Microseconds> Prediction::time_by_bound() const {
  return attribute_time(*this).by_bound;
}

Simulator::Simulator(device::Device gpu)
    : standalone_{OpPredictor(std::move(gpu)), {}},
      host_(host_from_launch(device().launch(), device().id())) {}

Simulator::Simulator(device::Device gpu, hw::HostSpec host)
    : standalone_{OpPredictor(std::move(gpu)), {}}, host_(std::move(host)) {}

Simulator::Simulator(const hw::SystemSpec& system)
    : standalone_{OpPredictor(system), {}}, host_(host_from_launch(device().launch(), device().id())) {}

Simulator::Simulator(const hw::SystemSpec& system, hw::HostSpec host)
    : standalone_{OpPredictor(system), {}}, host_(std::move(host)) {}

void Simulator::time_ops(const wl::Workload& w, Pass& pass, std::vector<const OpTiming*>& ops) {
  ops.clear();
  reserve_large(ops, w.size());
  std::map<int, std::vector<RecentKernel>> recent_on_stream;  // sim/warm_l2.h's recent kernels
  DirtyL2 dirty(pass.predictor.device());                     // sim/l2_dirty_state.h
  for (const auto& k : w.kernels()) {
    const OpTiming* timing = nullptr;
    try {
      timing = &pass.predictor.predict(k.op);
    } catch (const UnsupportedError& e) {
      // A collective's problem (no system, too many ranks) points at the kernel that asked for it.
      if (!std::holds_alternative<wl::CollectiveOp>(k.op)) throw;
      throw InputError(w.where(ops.size()), k.name, e.what());
    }
    auto& recent = recent_on_stream[k.stream];
    const WarmInput in =
        warm_input(k.op, timing->dram_bytes, recent, pass.predictor.device(), k.input_from_back);
    if (in.read_bytes > 0) {
      const WarmKey key{k.op, {in.read_bytes, in.write_bytes, in.every_input ? in.hit_share : -1.0}};
      auto found = pass.warm.find(key);
      if (found != pass.warm.end()) {
        timing = &found->second;
      } else if (auto warm = warm_l2_timing(k.op, *timing, in, pass.predictor.device())) {
        timing = &pass.warm.emplace(key, std::move(*warm)).first->second;
      }
    }
    if (!input_warm(*timing)) {
      // The dirty lines this kernel finds, in steps of kDirtyShareStep (one cached timing per step).
      const double share = std::round(dirty.share() / kDirtyShareStep) * kDirtyShareStep;
      if (share < 1) {
        const WarmKey key{k.op, {-1.0, share, 0.0}};  // read bytes < 0: no warm input, a dirty share
        auto found = pass.warm.find(key);
        if (found != pass.warm.end()) {
          timing = &found->second;
        } else if (auto fewer = dirty_share_timing(*timing, share)) {
          timing = &pass.warm.emplace(key, std::move(*fewer)).first->second;
        }
      }
    }
    const double written = std::min(timing->dram_bytes, written_bytes(k.op));
    dirty.after(timing->dram_bytes - written, written);
    if (recent.size() >= size_t(kRecentKernels)) recent.erase(recent.begin());
    recent.push_back(RecentKernel{&k.op, allocated_bytes(*timing, in)});
    ops.push_back(timing);
  }
}

Simulator::Pass& Simulator::limited_pass(double share) {
  const long key = std::lround(share / kShareStep);
  auto it = limited_.find(key);
  if (it != limited_.end()) return it->second;
  const double rounded = double(key) * kShareStep;
  if (system())
    return limited_.emplace(key, Pass{OpPredictor(*system(), device().at_matrix_share(rounded)), {}})
        .first->second;
  return limited_.emplace(key, Pass{OpPredictor(device().at_matrix_share(rounded)), {}}).first->second;
}

Prediction Simulator::predict(const wl::Workload& w) {
  Prediction p;
  p.gpu = device().id();
  if (system()) p.system = system()->id;
  p.workload = w.name();
  p.launch = w.launch();
  std::vector<const OpTiming*> ops;
  // Under a power limiter the step is first timed at the boost clock (a matrix share of 0); only a
  // step whose share of matrix work passes the limiter's knee is timed again at the clock that share
  // sustains (device/power_limiter.h). Real steps stay below the knee (the traced workloads run at
  // 1,965-1,980 MHz, validation/runs/h100-sxm/step-clock/), so most take one pass.
  const auto& limiter = device().power_limiter();
  time_ops(w, limiter ? limited_pass(0) : standalone_, ops);
  // The host side: a replayed trace keeps its recorded host time, any other workload is issued by
  // the host description (sim/host_schedule.h).
  HostTimeline h;
  Timeline t = schedule_host_and_gpu(w, ops, device().rates().dram, device().launch(), host_, h);
  if (limiter && t.total_us > 0) {
    Microseconds matrix_us = 0;
    for (const OpTiming* op : ops) matrix_us += op->matrix_us();
    const double share = matrix_us / t.total_us;
    if (share > limiter->knee_share) {
      time_ops(w, limited_pass(share), ops);
      // The first pass's timelines go before the second's are built: one step's worth at a time.
      h = HostTimeline{};
      t = Timeline{};
      t = schedule_host_and_gpu(w, ops, device().rates().dram, device().launch(), host_, h);
    }
  }
  for (const OpTiming* op : ops) {
    p.flops += op->flops;
    p.dram_bytes += op->dram_bytes;
  }
  p.total_us = t.total_us;
  p.gpu_busy_us = t.gpu_busy_us;
  p.host_us = t.host_us;
  p.host_sync_wait_us = t.host_sync_wait_us;
  p.host = host_.id;
  p.host_busy_us = h.busy_us;
  p.host_stall_us = h.stall_us;
  p.host_delay_us = h.delay_us;
  p.syncs = h.syncs;
  p.host_by_category = h.busy_by_category;
  // The per-kernel records last, once the schedule's scratch space is gone (a smaller peak).
  reserve_large(p.kernels, w.size());
  for (size_t i = 0; i < w.size(); ++i) {
    const auto& k = w.kernels()[i];
    const OpTiming* timing = ops[i];
    // Name, shape and pipe text once per distinct op (the cache's entry stands for its parameters).
    auto label = labels_.find(timing);
    if (label == labels_.end())
      label = labels_.emplace(timing, Label{wl::op_name(k.op), wl::op_shape(k.op), sol_pipe(k.op, device())})
                  .first;
    KernelPrediction& kp = p.kernels.emplace_back();
    kp.name = k.name;
    kp.op = label->second.op;
    kp.shape = label->second.shape;
    kp.stream = k.stream;
    kp.timing = timing;
    kp.sol_pipe = label->second.sol_pipe;
    kp.scheduled = t.kernels[i];
    kp.host_begin_us = h.begin_us[i];
    kp.host_split = h.split_of[i];
  }
  p.host_splits = std::move(h.splits);
  return p;
}

}  // namespace gpucast::sim
