#pragma once
// How old a catalog or quoted price is, and the warnings `cost` and `compare` print when a price
// they use is older than a year (prices of GPUs move fast: AWS cut H100 rents by up to 45% in
// June 2025; a V100's 2018 launch price says nothing about what one costs now).
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "hardware/gpu_spec.h"

namespace gpucast::models::cost {

struct CalendarDate {
  int year = 0;
  int month = 0;  // 1..12
  int day = 1;    // 1..31
};

// "YYYY-MM" or "YYYY-MM-DD"; nullopt for anything else.
[[nodiscard]] std::optional<CalendarDate> parse_price_date(std::string_view text);
// Today's date (UTC) from the system clock.
[[nodiscard]] CalendarDate today_utc();
// Whole and partial months from `from` to `to` (30.44-day months; negative when `from` is later).
[[nodiscard]] double months_between(const CalendarDate& from, const CalendarDate& to);

// Prices older than this many months are flagged.
constexpr double kStalePriceMonths = 12;

// One line per price of `gpu` that is used and older than kStalePriceMonths (or undated):
// the purchase price when `purchase`, the on-demand offer dated `cloud_date` when given.
[[nodiscard]] std::vector<std::string> stale_price_warnings(const hw::GpuSpec& gpu, bool purchase,
                                                            const std::optional<std::string>& cloud_offer,
                                                            const std::optional<std::string>& cloud_date,
                                                            const CalendarDate& today);

}  // namespace gpucast::models::cost
