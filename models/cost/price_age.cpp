#include "models/cost/price_age.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>

namespace gpucast::models::cost {
namespace {
// Days since 1970-01-01 of a civil date (Howard Hinnant's days_from_civil).
long days_from_civil(int y, int m, int d) {
  y -= m <= 2;
  const long era = (y >= 0 ? y : y - 399) / 400;
  const long yoe = y - era * 400;
  const long doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

std::string dollars(double usd) {
  std::string digits = std::to_string(static_cast<long long>(std::llround(usd)));
  for (int i = static_cast<int>(digits.size()) - 3; i > 0; i -= 3) digits.insert(static_cast<size_t>(i), ",");
  return "$" + digits;
}

std::string age_text(double months) {
  if (months >= 24) return std::to_string(static_cast<int>(months / 12)) + " years old";
  return std::to_string(static_cast<int>(std::floor(months))) + " months old";
}
}  // namespace

std::optional<CalendarDate> parse_price_date(std::string_view text) {
  if (text.size() != 7 && text.size() != 10) return std::nullopt;
  auto digits = [&](size_t from, size_t n, int& out) {
    out = 0;
    for (size_t i = from; i < from + n; ++i) {
      if (text[i] < '0' || text[i] > '9') return false;
      out = out * 10 + (text[i] - '0');
    }
    return true;
  };
  CalendarDate d;
  if (!digits(0, 4, d.year) || text[4] != '-' || !digits(5, 2, d.month) || d.month < 1 || d.month > 12)
    return std::nullopt;
  if (text.size() == 10 && (text[7] != '-' || !digits(8, 2, d.day) || d.day < 1 || d.day > 31))
    return std::nullopt;
  return d;
}

CalendarDate today_utc() {
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm utc{};
  gmtime_r(&now, &utc);
  return {utc.tm_year + 1900, utc.tm_mon + 1, utc.tm_mday};
}

double months_between(const CalendarDate& from, const CalendarDate& to) {
  const long days =
      days_from_civil(to.year, to.month, to.day) - days_from_civil(from.year, from.month, from.day);
  return static_cast<double>(days) / 30.44;
}

std::vector<std::string> stale_price_warnings(const hw::GpuSpec& gpu, bool purchase,
                                              const std::optional<std::string>& cloud_offer,
                                              const std::optional<std::string>& cloud_date,
                                              const CalendarDate& today) {
  std::vector<std::string> out;
  auto check = [&](const std::string& what, const std::string& date) {
    const auto d = parse_price_date(date);
    if (!d) {
      out.push_back(gpu.id + ": the " + what + " has no date" +
                    (date.empty() ? "" : " it can read ('" + date + "')") +
                    "; check it before trusting the ranking (--price-file takes your own quotes)");
      return;
    }
    const double months = months_between(*d, today);
    if (months > kStalePriceMonths)
      out.push_back(
          gpu.id + ": the " + what + " is from " + date + ", " + age_text(months) +
          "; prices move fast, check it before trusting the ranking (--price-file takes your own quotes)");
  };
  if (purchase)
    check("purchase price (" + (gpu.price.kind.empty() ? std::string("price") : gpu.price.kind) + ", " +
              dollars(gpu.price.usd) + ")",
          gpu.price.date);
  if (cloud_offer) check("cloud price (" + *cloud_offer + ")", cloud_date.value_or(""));
  return out;
}

}  // namespace gpucast::models::cost
