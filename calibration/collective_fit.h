#pragma once
// Fits a system's NCCL parameters to measured collective times (nccl-tests conventions): for every
// collective its fixed cost (nccl.<c>.base_latency_us) and plateau efficiency (nccl.<c>.bus_efficiency,
// or nccl.nvls_efficiency where NVLS runs the all-reduce), and one efficiency ramp (nccl.ramp_bytes,
// nccl.ramp_exponent) for all. The step latency stays the system's (a 2-GPU run cannot separate it
// from the fixed cost). For each ramp on a grid, time = max(fixed, steps x step + transfer /
// efficiency) per collective is fitted for the smallest mean absolute relative error (robust to the
// odd disturbed sample); the ramp with the smallest error over all collectives wins.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "hardware/system_spec.h"
#include "reports/json.h"
#include "workloads/ops/collective.h"

namespace gpucast::calib {

struct CollectivePoint {
  std::string collective;  // all_reduce, all_gather, reduce_scatter, all_to_all, broadcast, send
  int ranks = 2;
  double bytes = 0;
  double time_us = 0;
  bool fit = true;  // false: held out (reported, never fitted)
};

// Reads calibration/runs/bench_multi.py output (results.collectives.<name>.rows[]): the batched
// (nccl-tests style, back-to-back) time when `batched`, else the per-op median. Marks even size
// indices (0, 2, ...) of each collective as fit points and odd ones as held out.
// The collective a measured point describes ("sendrecv" read as "send"); an unknown name is an
// InputError.
[[nodiscard]] wl::CollectiveOp collective_op_of(const CollectivePoint& p);
// Whether NCCL runs this all-reduce on the NVSwitch's in-network reduction (NVLS) on `s`.
[[nodiscard]] bool uses_nvls(const hw::SystemSpec& s, const wl::CollectiveOp& op);

// One row of a probe's result file (`results.collectives.<name>.rows[]` of bench_multi.py and
// bench_multi_probe.py): the collective as gpucast spells it ("send" for the probes' "sendrecv"),
// the ranks, the message size and the row itself. Rows without a numeric size or rank count are
// skipped; a file without `results.collectives` is an InputError naming `script`.
struct CollectiveRow {
  std::string collective;
  int ranks = 0;
  double bytes = 0;
  const reports::Json& row;
};
void for_each_collective_row(const std::string& path, const std::string& script,
                             const std::function<void(const CollectiveRow&)>& visit);

[[nodiscard]] std::vector<CollectivePoint> read_bench_multi(const std::string& path, bool batched = true);
// Reads a CSV "collective,ranks,bytes,busbw_gbps" of published bus bandwidths (converted to times
// with the nccl-tests factors); even row indices per collective fit, odd held out.
[[nodiscard]] std::vector<CollectivePoint> read_busbw_csv(const std::string& path, const std::string& column);

struct CollectiveFit {
  hw::SystemSpec system;                               // with the fitted nccl values
  std::vector<std::pair<std::string, double>> values;  // key path -> fitted value
  double rms_relative_fit = 0;                         // mean |relative error| over the fit points
};

// `fixed_exponent`: keep nccl.ramp_exponent at this value and fit only nccl.ramp_bytes (a run whose
// fit sizes are too sparse to pin the ramp's shape).
[[nodiscard]] CollectiveFit fit_collectives(const hw::SystemSpec& base,
                                            const std::vector<CollectivePoint>& points,
                                            std::optional<double> fixed_exponent = std::nullopt);

// Predicted time of a point on `system`.
[[nodiscard]] double predict_point(const hw::SystemSpec& system, const CollectivePoint& point);

// The fitted values as a system profile TOML that extends `extends`, with provenance.
[[nodiscard]] std::string profile_toml(const CollectiveFit& fit, const std::string& name,
                                       const std::string& extends,
                                       const std::vector<std::string>& extra_lines,
                                       const std::string& provenance);

}  // namespace gpucast::calib
