#pragma once
// Owning a machine against renting a cloud GPU for the same hours of work. Money in US dollars,
// power in watts, time in hours or days of calendar time; utilization is the fraction of calendar
// time the GPU works (0..1).
#include <optional>

namespace gpucast::models::cost {

using Usd = double;
using Watts = double;
using Hours = double;
using Days = double;

constexpr Hours kHoursPerYear = 24.0 * 365.0;

struct OwnedMachine {
  Usd purchase_usd = 0;          // GPU plus the machine around it
  Watts busy_watts = 0;          // GPU plus host while working
  double usd_per_kwh = 0;        // electricity price
};

// The documented defaults of every cost question, in one place (docs/whatif.md): Dettmers' worked
// example (15% utilization, $0.12 per kWh) over a three-year horizon.
struct CostDefaults {
  static constexpr double utilization = 0.15;
  static constexpr double years = 3;
  static constexpr double usd_per_kwh = 0.12;
};

struct CostInputs {
  OwnedMachine owned;
  Usd cloud_usd_per_hour = 0;    // per GPU-hour, paid only while working
  double utilization = 0;        // fraction of calendar time the GPU works
  double years = 1;              // horizon: amortization period and the span compared
};

struct CostComparison {
  Hours busy_hours_per_year = 0;
  Usd electricity_usd_per_year = 0;
  Usd owned_usd_per_year = 0;    // purchase spread over the horizon, plus electricity
  Usd cloud_usd_per_year = 0;
  Usd owned_usd_per_busy_hour = 0;   // what one working hour costs when owned (0 when never used)
  Usd electricity_usd_per_busy_hour = 0;
  std::optional<Days> break_even_days;  // calendar days until owning is cheaper; none if never
  Usd owned_total_usd = 0;       // purchase + electricity over the horizon
  Usd cloud_total_usd = 0;       // rent over the horizon
  [[nodiscard]] bool owning_cheaper_over_horizon() const { return owned_total_usd < cloud_total_usd; }
};

// Throws UsageError for values outside their range (utilization outside [0, 1], negative prices,
// a horizon that is not positive).
[[nodiscard]] CostComparison compare_costs(const CostInputs& in);

}  // namespace gpucast::models::cost
