#include "models/block_dispatch.h"

#include <algorithm>
#include <functional>
#include <numeric>
#include <queue>

namespace gpucast::models {

double dispatch_waves(const std::vector<double>& work, double slots) {
  if (work.empty()) return 0;
  const double blocks = static_cast<double>(work.size());
  const double total = std::accumulate(work.begin(), work.end(), 0.0);
  if (!(total > 0) || !(slots >= 1)) return blocks / std::max(1.0, slots);
  const double average = total / blocks;
  if (blocks > kMaxScheduledBlocks) return blocks / slots;
  // Slots free at these times; each block goes to the earliest.
  const auto n = static_cast<std::size_t>(std::min(slots, blocks));
  std::priority_queue<double, std::vector<double>, std::greater<>> free_at;
  for (std::size_t i = 0; i < n; ++i) free_at.push(0.0);
  double end = 0;
  for (double w : work) {
    const double start = free_at.top();
    free_at.pop();
    end = std::max(end, start + w);
    free_at.push(start + w);
  }
  return std::max(end / average, blocks / slots);
}

}  // namespace gpucast::models
