#pragma once
// The grid of a what-if sweep: axes parsed from `--vary KEY=START:STOP:STEP | START:STOP:*FACTOR |
// V1,V2,...` over hardware keys (any numeric key of the GPU format) and workload parameters of a
// generated model (batch, seq, context, dtype, layers, launch). Every value is checked when the
// spec is parsed, so a bad spec fails before any point runs.
#include <cstddef>
#include <string>
#include <vector>

namespace gpucast::cli {

// The most values one axis may hold, and the most points one sweep may hold unless --max-points
// raises it (each point is a full prediction).
constexpr size_t kMaxSweepPoints = 1'000'000;
constexpr size_t kDefaultMaxSweepPoints = 10'000;

enum class AxisKind { hardware, workload };

struct SweepAxis {
  std::string key;                  // "memory.bandwidth_gbps" or "batch"
  AxisKind kind = AxisKind::hardware;
  std::vector<std::string> values;  // in sweep order, as text (numbers without trailing zeros)
};

// Workload parameters a sweep may vary, in documentation order.
[[nodiscard]] const std::vector<std::string>& workload_sweep_keys();

// Parses one --vary spec; throws UsageError that quotes the spec and says what is wrong.
[[nodiscard]] SweepAxis parse_vary(const std::string& spec);
// `max_points` bounds the grid (the product of axis sizes); --max-points raises it.
[[nodiscard]] std::vector<SweepAxis> parse_vary_all(const std::vector<std::string>& specs,
                                                    size_t max_points = kDefaultMaxSweepPoints);

// Number of points of the full grid (product of axis sizes).
[[nodiscard]] size_t grid_size(const std::vector<SweepAxis>& axes);
// The values of point `index` of the grid, one per axis; the last axis varies fastest.
[[nodiscard]] std::vector<std::string> grid_point(const std::vector<SweepAxis>& axes, size_t index);


}  // namespace gpucast::cli
