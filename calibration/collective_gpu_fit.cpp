#include "calibration/collective_gpu_fit.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

#include "common/errors.h"
#include "models/collective_model.h"
#include "reports/json.h"

namespace gpucast::calib {
namespace {

// The L minimizing sum w_i |L - y_i| (a weighted median), clamped at 0.
double weighted_median(std::vector<std::pair<double, double>> yw) {
  std::sort(yw.begin(), yw.end());
  double total = 0;
  for (const auto& [y, w] : yw) total += w;
  double acc = 0;
  for (const auto& [y, w] : yw) {
    acc += w;
    if (acc >= total / 2) return std::max(0.0, y);
  }
  return 0;
}

struct CurveFit {
  double latency_us = 0, efficiency = 1, ramp_bytes = 0, loss = std::numeric_limits<double>::infinity();
};

// Stage 1 for one collective: a grid over the ramp and the efficiency, the latency in closed form.
CurveFit fit_curve(const hw::SystemSpec& base, const std::string& key,
                   const std::vector<const CollectivePoint*>& pts, double exponent) {
  CurveFit best;
  for (double log_ramp = 4.0; log_ramp <= 9.0 + 1e-9; log_ramp += 0.02) {
    hw::SystemSpec unit = base;
    unit.nccl.ramp_exponent = exponent;
    unit.nccl.ramp_bytes_for[key] = std::pow(10.0, log_ramp);
    unit.nccl.base_latency_us_for[key] = 0;
    unit.nccl.gpu_latency_us_for[key] = 0;
    unit.nccl.bus_efficiency_for[key] = 1;
    unit.nccl.nvls_efficiency = 1;
    // lat: the steps' latency and the transfer at a protocol's fixed cap (LL), x: the transfer the
    // plateau efficiency scales
    std::vector<double> lat, x, t;
    for (const auto* p : pts) {
      const auto e = models::estimate_collective(collective_op_of(*p), unit);
      lat.push_back(e.latency_us + e.capped_transfer_us);
      x.push_back(e.transfer_us - e.capped_transfer_us);
      t.push_back(p->time_us);
    }
    for (double eff = 0.02; eff <= 1.0 + 1e-9; eff += 0.001) {
      std::vector<std::pair<double, double>> yw;
      for (size_t i = 0; i < t.size(); ++i) yw.emplace_back(t[i] - lat[i] - x[i] / eff, 1 / t[i]);
      const double L = weighted_median(yw);
      double loss = 0;
      for (size_t i = 0; i < t.size(); ++i) loss += std::fabs((L + lat[i] + x[i] / eff) / t[i] - 1);
      if (loss < best.loss) best = {L, eff, std::pow(10.0, log_ramp), loss};
    }
  }
  return best;
}

}  // namespace

std::vector<CollectivePoint> read_probe_graph_times(const std::string& path, double min_bytes) {
  std::vector<CollectivePoint> out;
  std::map<std::string, int> index;  // per collective: alternate fit / held out
  for_each_collective_row(path, "bench_multi_probe.py", [&](const CollectiveRow& r) {
    const auto* ranks = r.row.get("per_rank");
    if (r.bytes < min_bytes || !ranks || !ranks->is_array()) return;
    // min over replays of the max over ranks
    std::vector<std::vector<double>> reps;
    for (const auto& rank : ranks->as_array()) {
      const auto* g = rank.get("graph_avg_us");
      if (!g || !g->is_array()) return;
      std::vector<double> v;
      for (const auto& x : g->as_array())
        if (x.is_number()) v.push_back(x.as_number());
      reps.push_back(v);
    }
    if (reps.empty()) return;
    size_t n = reps.front().size();
    for (const auto& v : reps) n = std::min(n, v.size());
    double best = std::numeric_limits<double>::infinity();
    for (size_t i = 0; i < n; ++i) {
      double worst = 0;
      for (const auto& v : reps) worst = std::max(worst, v[i]);
      best = std::min(best, worst);
    }
    if (!std::isfinite(best) || !(best > 0)) return;
    CollectivePoint p;
    p.collective = r.collective;
    p.ranks = r.ranks;
    p.bytes = r.bytes;
    p.time_us = best;
    p.fit = (index[r.collective]++ % 2) == 0;
    out.push_back(p);
  });
  return out;
}

double predict_point_gpu(const hw::SystemSpec& system, const CollectivePoint& point) {
  return models::estimate_collective(collective_op_of(point), system).gpu_us;
}

CollectiveFit fit_collectives_two_stage(const hw::SystemSpec& base,
                                        const std::vector<CollectivePoint>& gpu_points,
                                        const std::vector<CollectivePoint>& host_points,
                                        double ramp_exponent) {
  if (!(ramp_exponent > 0) || !std::isfinite(ramp_exponent)) throw Error("the ramp exponent must be > 0");
  std::map<std::string, std::vector<const CollectivePoint*>> gpu_by, host_by;
  for (const auto& p : gpu_points)
    if (p.fit) gpu_by[models::nccl_key(collective_op_of(p).kind)].push_back(&p);
  for (const auto& p : host_points)
    if (p.fit) host_by[models::nccl_key(collective_op_of(p).kind)].push_back(&p);
  if (gpu_by.empty()) throw Error("no CUDA-graph collective points to fit");

  CollectiveFit fit;
  fit.system = base;
  fit.system.nccl.ramp_exponent = ramp_exponent;
  double err = 0;
  int n = 0;
  for (const auto& [key, pts] : gpu_by) {
    const auto c = fit_curve(fit.system, key, pts, ramp_exponent);
    const bool nvls = uses_nvls(fit.system, collective_op_of(*pts.front()));
    if (nvls)
      fit.system.nccl.nvls_efficiency = c.efficiency;
    else
      fit.system.nccl.bus_efficiency_for[key] = c.efficiency;
    fit.system.nccl.gpu_latency_us_for[key] = c.latency_us;
    fit.system.nccl.ramp_bytes_for[key] = c.ramp_bytes;
    fit.values.emplace_back("nccl." + key + ".gpu_latency_us", c.latency_us);
    fit.values.emplace_back(nvls ? "nccl.nvls_efficiency" : "nccl." + key + ".bus_efficiency", c.efficiency);
    fit.values.emplace_back("nccl." + key + ".ramp_bytes", c.ramp_bytes);
    err += c.loss;
    n += static_cast<int>(pts.size());
  }
  // Stage 2: the host floor, with the GPU curve fixed.
  for (const auto& [key, pts] : host_by) {
    hw::SystemSpec s = fit.system;
    s.nccl.base_latency_us_for[key] = 0;
    std::vector<double> gpu, t;
    for (const auto* p : pts) {
      gpu.push_back(models::estimate_collective(collective_op_of(*p), s).time_us);
      t.push_back(p->time_us);
    }
    double best_b = 0, best_l = std::numeric_limits<double>::infinity();
    std::vector<double> candidates{0.0};
    candidates.insert(candidates.end(), t.begin(), t.end());
    for (double b : candidates) {
      double l = 0;
      for (size_t i = 0; i < t.size(); ++i) l += std::fabs(std::max(b, gpu[i]) / t[i] - 1);
      if (l < best_l) best_l = l, best_b = b;
    }
    fit.system.nccl.base_latency_us_for[key] = best_b;
    fit.values.emplace_back("nccl." + key + ".base_latency_us", best_b);
    err += best_l;
    n += static_cast<int>(t.size());
  }
  fit.values.emplace_back("nccl.ramp_exponent", ramp_exponent);
  fit.rms_relative_fit = err / std::max(1, n);
  return fit;
}

}  // namespace gpucast::calib
