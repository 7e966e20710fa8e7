#include "device/power_limiter.h"

#include <algorithm>
#include <cmath>

namespace gpucast::device {

double limited_clock_mhz(const PowerLimiter& limiter, double matrix_share) {
  const double s = std::clamp(matrix_share, 0.0, 1.0);
  if (s <= limiter.knee_share || limiter.knee_share >= 1) return limiter.boost_clock_mhz;
  const double above_knee = (s - limiter.knee_share) / (1 - limiter.knee_share);
  return limiter.boost_clock_mhz - (limiter.boost_clock_mhz - limiter.matrix_clock_mhz) * above_knee;
}

double matrix_clock_factor(const std::optional<PowerLimiter>& limiter, double matrix_share) {
  if (!limiter) return 1;
  return std::pow(limited_clock_mhz(*limiter, matrix_share) / limited_clock_mhz(*limiter, 1),
                  kMatrixRateClockExponent);
}

}  // namespace gpucast::device
