#include "sim/sm_residency.h"

#include <algorithm>
#include <cmath>

namespace gpucast::sim {

namespace {
// Free SMs never count as fewer than this share (a held share of 1 or more would leave none).
constexpr double kMinFreeShare = 0.05;
// Grid shares within this of a whole number are that number (waves computed in floating point).
constexpr double kShareTolerance = 1e-9;
}  // namespace

double displaced_factor(bool persistent, double grid_share, double held_sm_share) {
  if (!persistent || !(held_sm_share > 0) || !(grid_share > 0)) return 1.0;
  const double free_share = std::max(kMinFreeShare, 1.0 - held_sm_share);
  const double grid = std::min(1.0, grid_share);  // a persistent grid is at most one block per slot
  return std::max(1.0, std::ceil(grid / free_share - kShareTolerance));
}

double displaced_exec_us(const std::vector<KernelTiming>& kernels, double exec_us, double held_sm_share) {
  if (!(held_sm_share > 0) || !(exec_us > 0)) return exec_us;
  double stretched = 0;
  for (const auto& kt : kernels)
    stretched += kt.exec_us * displaced_factor(kt.persistent, kt.waves, held_sm_share);
  return std::max(exec_us, stretched);
}

}  // namespace gpucast::sim
