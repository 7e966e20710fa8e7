#pragma once
// Charts of the what-if commands: GPUs side by side (compare), a metric against the varied keys
// (sweep), and cumulative cost of owning against renting over time (cost).
#include <optional>
#include <string>
#include <vector>

#include "models/cost/ranking.h"
#include "reports/report.h"

namespace gpucast::reports {

[[nodiscard]] std::vector<Chart> compare_charts(const std::vector<models::cost::ComparisonRow>& rows,
                                                const std::string& result_unit);

// One sweep point: its values per axis, and what was predicted (absent when it failed).
struct SweepPointView {
  std::vector<std::string> values;
  std::optional<double> time_us;
  std::optional<double> throughput;
  std::string bound;
};

[[nodiscard]] std::vector<Chart> sweep_charts(const std::vector<std::string>& axis_keys,
                                              const std::vector<SweepPointView>& points, const std::string& throughput_unit);

struct CostLine {
  std::string name;        // "owned", "cloud on-demand", "cloud spot"
  double upfront_usd = 0;  // paid on day 0
  double usd_per_day = 0;  // paid per calendar day
};

[[nodiscard]] Chart cost_chart(const std::vector<CostLine>& lines, double horizon_days,
                               std::optional<double> break_even_days);

}  // namespace gpucast::reports
