#include "sim/l2_dirty_state.h"

#include <algorithm>
#include <cmath>

namespace gpucast::sim {

DirtyL2::DirtyL2(const device::Device& gpu)
    : full_bytes_(gpu.l2_dirty_bytes()), lines_bytes_(gpu.l2_lines_bytes()), dirty_bytes_(full_bytes_) {}

void DirtyL2::after(double read_bytes, double write_bytes) {
  if (full_bytes_ <= 0 || lines_bytes_ <= 0) return;
  const double kept = dirty_bytes_ * std::exp(-std::max(0.0, read_bytes) / lines_bytes_);
  dirty_bytes_ = std::min(full_bytes_, kept + std::max(0.0, write_bytes));
}

std::optional<OpTiming> dirty_share_timing(const OpTiming& flushed, double share) {
  share = std::clamp(share, 0.0, 1.0);
  double saved_total = 0;
  OpTiming out = flushed;
  for (auto& k : out.kernels) {
    const double saved = (1 - share) * k.writeback_us;
    if (saved <= 0) continue;
    const double from_memory = std::min(k.memory_us, saved);
    k.memory_us -= from_memory;
    k.latency_us = std::max(0.0, k.latency_us - (saved - from_memory));
    k.exec_us -= saved;
    k.writeback_us -= saved;
    saved_total += saved;
  }
  if (saved_total <= 0) return std::nullopt;
  out.exec_us -= saved_total;
  out.duration_us -= saved_total;
  return out;
}

}  // namespace gpucast::sim
