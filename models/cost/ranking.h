#pragma once
// One GPU's line in a comparison, and the order users ask for. A GPU the workload does not fit on
// ranks below every GPU it fits on, and one that cannot run it at all below those; a missing value
// (no price, no cloud offer) ranks after known ones.
#include <optional>
#include <string>
#include <vector>

#include "models/cost/ownership.h"
#include "models/cost/pricing.h"

namespace gpucast::models::cost {

enum class RankBy { time, perf_per_usd, usd_per_result };

// "time", "perf-per-usd" or "usd-per-result"; throws UsageError otherwise.
[[nodiscard]] RankBy parse_rank_by(const std::string& text);

struct ComparisonRow {
  std::string gpu;   // catalog id or file
  std::string name;
  double time_us = 0;          // one step (one run of the workload)
  double results_per_s = 0;    // results (what cost per result counts) per second of work
  double throughput = 0;       // tokens/s, samples/s, or runs/s for workload files
  std::string throughput_unit;
  std::string bound;           // what dominates the step
  double speedup = 1;          // baseline time / this time
  bool fits = true;
  double peak_gb = 0, capacity_gb = 0;
  std::optional<Usd> price_usd;      // the GPU alone
  std::string price_kind, price_date;
  Watts gpu_watts = 0;
  std::optional<double> throughput_per_kusd;  // per $1,000 of GPU price
  double throughput_per_watt = 0;
  std::optional<Usd> owned_usd_per_result;
  std::optional<Usd> rented_usd_per_result;
  std::optional<CloudPrice> cloud;
  std::string error;  // the GPU cannot run the workload at all (no fp8 tensor cores, ...)
  int rank = 0;

  // The cheaper of owning and renting, if either is known.
  [[nodiscard]] std::optional<Usd> best_usd_per_result() const;
};

// Sorts `rows` best first by `by` and numbers them from 1.
void rank_rows(std::vector<ComparisonRow>& rows, RankBy by);

}  // namespace gpucast::models::cost
