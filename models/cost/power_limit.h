#pragma once
// A board power cap turned into an SM clock: board power at a fraction f of the sustained clock is
// modeled as static + dynamic x f^3 (voltage falls with frequency), with the static share (idle,
// memory, fans, regulators) a fixed fraction of the rated power. Memory bandwidth does not depend
// on the SM clock, so memory-bound work barely slows.
#include "hardware/gpu_spec.h"

namespace gpucast::models::cost {

// Share of rated board power that does not scale with the SM clock (assumed; see docs).
constexpr double kStaticPowerShare = 0.3;

// SM clock fraction (0, 1] the GPU sustains under `cap_w` when rated `rated_w`; 1 when the cap is at
// or above the rating. Throws UsageError when the cap is below the static power.
[[nodiscard]] double clock_fraction_under_cap(double rated_w, double cap_w);

// `gpu` with every SM-clock-driven rate scaled by `fraction`: clocks, compute peaks, L2 and per-SM
// bandwidths, block dispatch; DRAM bandwidth and the DRAM latency in nanoseconds are kept.
[[nodiscard]] hw::GpuSpec at_clock_fraction(hw::GpuSpec gpu, double fraction);

}  // namespace gpucast::models::cost
