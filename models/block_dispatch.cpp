#include "models/block_dispatch.h"

#include <algorithm>
#include <cmath>
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

double dispatch_waves_repeated(const std::vector<double>& unit, double repeats, double slots) {
  if (unit.empty() || !(repeats >= 1)) return 0;
  const double per_copy = static_cast<double>(unit.size());
  const double blocks = per_copy * repeats;
  const double unit_work = std::accumulate(unit.begin(), unit.end(), 0.0);
  if (!(unit_work > 0) || !(slots >= 1)) return blocks / std::max(1.0, slots);
  if (blocks > kMaxScheduledBlocks) return blocks / slots;
  // Copies scheduled one by one: enough for the steady state, and two measuring points after it.
  const double settle = std::ceil(kSteadyStateWaves * slots / per_copy);
  if (repeats <= 2 * settle + 2) {
    std::vector<double> grid;
    grid.reserve(static_cast<std::size_t>(blocks));
    for (double r = 0; r < repeats; ++r) grid.insert(grid.end(), unit.begin(), unit.end());
    return dispatch_waves(grid, slots);
  }
  const auto n = static_cast<std::size_t>(slots);
  std::priority_queue<double, std::vector<double>, std::greater<>> free_at;
  for (std::size_t i = 0; i < n; ++i) free_at.push(0.0);
  double end = 0;
  const double scheduled = 2 * settle;
  for (double r = 0; r < scheduled; ++r) {
    for (double w : unit) {
      const double start = free_at.top();
      free_at.pop();
      end = std::max(end, start + w);
      free_at.push(start + w);
    }
  }
  // The greedy schedule leaves no slot idle while blocks wait, so each further copy adds its work
  // spread over the slots; the periodic tail past the last block stays what it was.
  const double total_end = end + (repeats - scheduled) * unit_work / slots;
  const double average = unit_work / per_copy;
  return std::max(total_end / average, blocks / slots);
}

}  // namespace gpucast::models
