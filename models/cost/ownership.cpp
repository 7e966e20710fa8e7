#include "models/cost/ownership.h"

#include <string>

#include "common/errors.h"

namespace gpucast::models::cost {
namespace {
void require(bool ok, const std::string& what) {
  if (!ok) throw UsageError(what);
}
}  // namespace

CostComparison compare_costs(const CostInputs& in) {
  require(in.utilization >= 0 && in.utilization <= 1, "utilization must be between 0 and 1 (a fraction of the year)");
  require(in.years > 0, "the horizon (--years) must be positive");
  require(in.owned.purchase_usd >= 0, "the purchase price must not be negative");
  require(in.owned.busy_watts >= 0, "power draw must not be negative");
  require(in.owned.usd_per_kwh >= 0, "the electricity price must not be negative");
  require(in.cloud_usd_per_hour >= 0, "the cloud price must not be negative");

  CostComparison c;
  c.busy_hours_per_year = kHoursPerYear * in.utilization;
  c.electricity_usd_per_busy_hour = in.owned.busy_watts / 1000.0 * in.owned.usd_per_kwh;
  c.electricity_usd_per_year = c.electricity_usd_per_busy_hour * c.busy_hours_per_year;
  c.owned_usd_per_year = in.owned.purchase_usd / in.years + c.electricity_usd_per_year;
  c.cloud_usd_per_year = in.cloud_usd_per_hour * c.busy_hours_per_year;
  if (c.busy_hours_per_year > 0) c.owned_usd_per_busy_hour = c.owned_usd_per_year / c.busy_hours_per_year;
  c.owned_total_usd = in.owned.purchase_usd + c.electricity_usd_per_year * in.years;
  c.cloud_total_usd = c.cloud_usd_per_year * in.years;
  // Owning costs the purchase up front and electricity per working hour; renting costs the hourly
  // price per working hour. The purchase is paid back by the difference, hour by working hour.
  const double saving_per_day = (c.cloud_usd_per_year - c.electricity_usd_per_year) / 365.0;
  if (saving_per_day > 0) c.break_even_days = in.owned.purchase_usd / saving_per_day;
  return c;
}

}  // namespace gpucast::models::cost
