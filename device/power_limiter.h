#pragma once
// The board power limiter under tensor-core work. Matrix (tensor-core) work draws the most power:
// run back to back it holds the board at its limit with the SM clock well below boost (H100 SXM:
// 696 W at 1,440 MHz against 1,980 MHz boost, validation/h100-sxm/power.json). Interleaved with
// memory-bound kernels, flushes or idle time, the average power falls and the clock rises, up to
// the boost clock once matrix work is at most `knee_share` of the recent window. In between the
// clock is linear in the share (the measured phases fit it within 29 MHz rms).
#include <optional>

namespace gpucast::device {

struct PowerLimiter {
  double boost_clock_mhz = 0;
  double matrix_clock_mhz = 0;  // the sustained clock at a matrix share of 1
  double knee_share = 1;        // the largest matrix share that keeps the boost clock
};

// The SM clock the limiter sustains when `matrix_share` (clamped to [0, 1]) of the surrounding
// window is tensor-core work: boost at or below the knee, matrix_clock_mhz at full duty, linear in
// between.
[[nodiscard]] double limited_clock_mhz(const PowerLimiter& limiter, double matrix_share);

// A library GEMM's time falls with the limited clock as clock^-0.5, not clock^-1. Measured: the
// 4096^3 bf16 GEMM of validation/h100-sxm/power.json's phases (time per iteration less the casts)
// takes 209.7 us at 1,440 MHz, 199.4 at 1,695, 190.0 at 1,770, 179.0 at 1,950 and 178.7 at 1,980:
// exponents 0.31-0.52, 0.50 from end to end. (The sampled clock is not the one a GEMM runs at
// throughout: the limiter also acts faster than nvidia-smi's 20 ms samples.)
constexpr double kMatrixRateClockExponent = 0.5;

// The rate of matrix work at `matrix_share` relative to back to back (>= 1): the limited clock's
// ratio to the full-duty clock, to kMatrixRateClockExponent. 1 without a limiter.
[[nodiscard]] double matrix_clock_factor(const std::optional<PowerLimiter>& limiter, double matrix_share);

}  // namespace gpucast::device
