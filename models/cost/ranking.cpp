#include "models/cost/ranking.h"

#include <algorithm>
#include <limits>

#include "common/errors.h"

namespace gpucast::models::cost {

RankBy parse_rank_by(const std::string& text) {
  if (text == "time") return RankBy::time;
  if (text == "perf-per-usd") return RankBy::perf_per_usd;
  if (text == "usd-per-result") return RankBy::usd_per_result;
  throw UsageError("--rank takes time, perf-per-usd or usd-per-result, not '" + text + "'");
}

std::optional<Usd> ComparisonRow::best_usd_per_result() const {
  if (owned_usd_per_result && rented_usd_per_result) return std::min(*owned_usd_per_result, *rented_usd_per_result);
  return owned_usd_per_result ? owned_usd_per_result : rented_usd_per_result;
}

void rank_rows(std::vector<ComparisonRow>& rows, RankBy by) {
  constexpr double kMissing = std::numeric_limits<double>::infinity();
  // Smaller is better for every key: times and costs as they are, rates negated.
  auto key = [by](const ComparisonRow& r) -> double {
    switch (by) {
      case RankBy::time: return r.time_us;
      case RankBy::perf_per_usd: return r.throughput_per_kusd ? -*r.throughput_per_kusd : kMissing;
      case RankBy::usd_per_result: {
        const auto best = r.best_usd_per_result();
        return best ? *best : kMissing;
      }
    }
    return kMissing;
  };
  std::stable_sort(rows.begin(), rows.end(), [&](const ComparisonRow& a, const ComparisonRow& b) {
    if (a.error.empty() != b.error.empty()) return a.error.empty();
    if (a.fits != b.fits) return a.fits;
    return key(a) < key(b);
  });
  for (size_t i = 0; i < rows.size(); ++i) rows[i].rank = int(i) + 1;
}

}  // namespace gpucast::models::cost
