#include "sim/op_predictor.h"

#include <algorithm>
#include <limits>

#include "models/op_model.h"
#include "sim/collective_timing.h"
#include "sim/traced_timing.h"
#include "workloads/op_params.h"

namespace gpucast::sim {

OpPredictor::OpPredictor(device::Device gpu) : gpu_(std::move(gpu)) {}

OpPredictor::OpPredictor(const hw::SystemSpec& system) : gpu_(system.gpu), system_(system) {}

OpPredictor::OpPredictor(const hw::SystemSpec& system, device::Device gpu)
    : gpu_(std::move(gpu)), system_(system) {}

const OpTiming& OpPredictor::predict(const wl::Op& op) {
  auto it = cache_.find(op);
  if (it != cache_.end()) return it->second;
  return cache_.emplace(op, compute(op)).first->second;
}


OpTiming OpPredictor::time_option(const models::PlanOption& option) const {
  const auto& launch = gpu_.launch();
  OpTiming t;
  t.option = option.name;
  bool reads = false;
  for (const auto& k : option.kernels) {
    t.kernels.push_back(time_kernel(k, gpu_));
    t.exec_us += t.kernels.back().exec_us;
    t.dram_bytes += t.kernels.back().dram_bytes;
    reads = reads || k.reads_dram;
  }
  int kernels = static_cast<int>(option.kernels.size());
  for (const auto& sub : option.sub_ops) {
    const OpTiming s = compute(sub);
    for (const auto& k : s.kernels) t.kernels.push_back(k);
    t.exec_us += s.exec_us;
    t.dram_bytes += s.dram_bytes;
    kernels += static_cast<int>(s.kernels.size());
    reads = true;
  }
  t.overhead_us = launch.standalone_overhead_us(kernels, reads);
  t.host_us = option.host_us;
  if (option.host_between_launches && kernels > 0) {
    // Kernel i is issued once the host has spent i + 1 shares of its time (the flush ahead of the
    // first hides that much); the GPU runs each when issued and the previous one is done.
    const double share_us = option.host_us / kernels;
    double gpu_us = 0;
    for (size_t i = 0; i < t.kernels.size(); ++i)
      gpu_us = std::max(gpu_us, double(i + 1) * share_us - launch.flush_us) + t.kernels[i].exec_us;
    t.overhead_us += gpu_us - t.exec_us;
  } else {
    t.overhead_us += launch.exposed_host_us(option.host_us);
  }
  t.duration_us = t.overhead_us + t.exec_us;
  return t;
}

void OpPredictor::finish(OpTiming& t, const wl::Op& op) const {
  t.flops = wl::op_flops(op);
  // A library op's framework and library host time (the host description's library.call_us) does
  // not delay a standalone op behind do_bench's flush; the host timeline charges it
  // (sim/host_timeline.cpp), with t.host_us as the op model's own floor.
  // The op's bound: launch when overheads outweigh the kernels, else the longest kernel's.
  if (t.overhead_us >= t.exec_us || t.kernels.empty()) {
    t.bound = Bound::launch;
  } else {
    const auto longest = std::max_element(t.kernels.begin(), t.kernels.end(),
                                          [](const auto& a, const auto& b) { return a.exec_us < b.exec_us; });
    t.bound = longest->bound();
  }
}

Microseconds OpTiming::matrix_us() const {
  Microseconds us = 0;
  for (const auto& k : kernels) us += std::min(k.exec_us, k.matrix_busy_us);
  return us;
}

namespace {
// The do_bench duty is a fixed point (a faster GEMM is a larger share of its call): times at full
// duty, then at the share that gave, then at the share of that (the third differs from the
// second by well under 1% on the H100's GEMMs).
constexpr int kDutyRounds = 2;
}  // namespace

std::vector<OpTiming> OpPredictor::rank_options(const wl::Op& op) const {
  auto ranked = rank_at_device_share(op);
  if (!gpu_.power_limiter() || gpu_.matrix_share() || ranked.empty() ||
      std::holds_alternative<wl::CollectiveOp>(op))
    return ranked;
  // Standalone, as do_bench times it: the op's matrix work against the op and the L2 flush ahead
  // of it is the share of matrix work the power limiter sees.
  for (int round = 0; round < kDutyRounds && ranked.front().matrix_us() > 0; ++round) {
    const OpTiming& best = ranked.front();
    const double share = best.matrix_us() / (best.duration_us + gpu_.launch().flush_us);
    ranked = OpPredictor(gpu_.at_matrix_share(share)).rank_at_device_share(op);
  }
  return ranked;
}

std::vector<OpTiming> OpPredictor::rank_at_device_share(const wl::Op& op) const {
  std::vector<OpTiming> ranked;
  if (const auto* c = std::get_if<wl::CollectiveOp>(&op); c && system_) {
    ranked.push_back(time_collective(*c, *system_, gpu_));
    return ranked;
  }
  for (const auto& option : models::plan_op(op, gpu_)) {
    ranked.push_back(time_option(option));
    finish(ranked.back(), op);
  }
  std::stable_sort(ranked.begin(), ranked.end(),
                   [](const OpTiming& a, const OpTiming& b) { return a.duration_us < b.duration_us; });
  return ranked;
}

OpTiming OpPredictor::compute(const wl::Op& op) const {
  if (const auto* traced = std::get_if<wl::TracedOp>(&op)) return traced_timing(*traced, gpu_);
  auto ranked = rank_options(op);
  return std::move(ranked.front());
}

}  // namespace gpucast::sim
