#include "calibration/collective_fit.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <map>
#include <sstream>

#include "common/errors.h"
#include "models/collective_model.h"
#include "reports/json.h"

namespace gpucast::calib {
namespace {

void mark_even_odd(std::vector<CollectivePoint>& points) {
  std::map<std::string, int> index;
  for (auto& p : points) p.fit = (index[p.collective + std::to_string(p.ranks)]++ % 2) == 0;
}

}  // namespace

wl::CollectiveOp collective_op_of(const CollectivePoint& p) {
  wl::CollectiveOp op;
  const std::string name = p.collective == "sendrecv" ? "send" : p.collective;
  auto kind = wl::parse_collective(name);
  if (!kind) throw InputError(SourceLocation{}, "collective", "unknown collective '" + p.collective + "'");
  op.kind = *kind;
  op.bytes = p.bytes;
  op.ranks = p.ranks;
  return op;
}

bool uses_nvls(const hw::SystemSpec& s, const wl::CollectiveOp& op) {
  return op.kind == wl::CollectiveKind::all_reduce && s.fabric.nvls &&
         s.fabric.kind == hw::FabricKind::nvswitch && op.ranks <= s.fabric.domain_gpus;
}

void for_each_collective_row(const std::string& path, const std::string& script,
                             const std::function<void(const CollectiveRow&)>& visit) {
  const auto root = reports::Json::parse_file(path);
  const auto* results = root.get("results");
  const auto* colls = results ? results->get("collectives") : nullptr;
  if (!colls || !colls->is_object())
    throw InputError(SourceLocation{path}, "results.collectives", "not a " + script + " result file");
  for (const auto& [name, c] : colls->as_object()) {
    const auto* world = c.get("world");
    const auto* rows = c.get("rows");
    if (!world || !world->is_number() || !rows || !rows->is_array()) continue;
    for (const auto& row : rows->as_array()) {
      const auto* bytes = row.get("bytes");
      if (!bytes || !bytes->is_number()) continue;
      visit(CollectiveRow{name == "sendrecv" ? "send" : name, static_cast<int>(world->as_number()),
                          bytes->as_number(), row});
    }
  }
}

std::vector<CollectivePoint> read_bench_multi(const std::string& path, bool batched) {
  std::vector<CollectivePoint> out;
  for_each_collective_row(path, "bench_multi.py", [&](const CollectiveRow& r) {
    const auto* t = r.row.get(batched ? "batched_avg_us_max_rank" : "time_us_median");
    if (!t || !t->is_number()) return;
    CollectivePoint p;
    p.collective = r.collective;
    p.ranks = r.ranks;
    p.bytes = r.bytes;
    p.time_us = t->as_number();
    if (!(p.time_us > 0) || !(p.bytes > 0)) return;
    out.push_back(p);
  });
  mark_even_odd(out);
  return out;
}

std::vector<CollectivePoint> read_busbw_csv(const std::string& path, const std::string& column) {
  std::ifstream in(path);
  if (!in) throw InputError(SourceLocation{path}, "", "cannot read the published-curve CSV");
  std::string line;
  std::getline(in, line);
  std::vector<std::string> header;
  {
    std::stringstream ss(line);
    for (std::string cell; std::getline(ss, cell, ',');) header.push_back(cell);
  }
  size_t col = header.size();
  for (size_t i = 0; i < header.size(); ++i)
    if (header[i] == column) col = i;
  if (col == header.size()) throw InputError(SourceLocation{path, 1, 1}, column, "no such column");
  std::vector<CollectivePoint> out;
  int line_no = 1;
  while (std::getline(in, line)) {
    ++line_no;
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> cells;
    std::stringstream ss(line);
    for (std::string cell; std::getline(ss, cell, ',');) cells.push_back(cell);
    if (cells.size() != header.size() || cells[col].empty()) continue;
    CollectivePoint p;
    p.collective = cells[0];
    p.ranks = std::stoi(cells[1]);
    p.bytes = std::stod(cells[2]);
    const double busbw = std::stod(cells[col]);
    if (!(busbw > 0)) throw InputError(SourceLocation{path, line_no, 1}, column, "bus bandwidth must be > 0");
    const double factor = models::bus_factor(collective_op_of(p).kind, p.ranks);
    p.time_us = p.bytes * factor / (busbw * 1e3);
    out.push_back(p);
  }
  mark_even_odd(out);
  return out;
}

double predict_point(const hw::SystemSpec& system, const CollectivePoint& point) {
  return models::estimate_collective(collective_op_of(point), system).time_us;
}

CollectiveFit fit_collectives(const hw::SystemSpec& base, const std::vector<CollectivePoint>& points,
                              std::optional<double> fixed_exponent) {
  std::map<std::string, std::vector<const CollectivePoint*>> by;
  for (const auto& p : points)
    if (p.fit) by[models::nccl_key(collective_op_of(p).kind)].push_back(&p);
  if (by.empty()) throw Error("no collective points to fit");

  CollectiveFit best;
  double best_err = std::numeric_limits<double>::infinity();
  for (double log_ramp = 3.0; log_ramp <= 9.0 + 1e-9; log_ramp += 0.1) {
    for (double exponent = fixed_exponent.value_or(0.3); exponent <= fixed_exponent.value_or(2.5) + 1e-9;
         exponent += 0.05) {
      hw::SystemSpec s = base;
      s.nccl.ramp_bytes = std::pow(10.0, log_ramp);
      s.nccl.ramp_exponent = exponent;
      // Unit system: no fixed cost, plateau 1: the model returns the steps' latency and the
      // transfer at full efficiency.
      hw::SystemSpec unit = s;
      unit.nccl.base_latency_us = 0;
      unit.nccl.base_latency_us_for.clear();
      unit.nccl.bus_efficiency = 1;
      unit.nccl.bus_efficiency_for.clear();
      unit.nccl.nvls_efficiency = 1;
      double err = 0;
      int n = 0;
      std::vector<std::pair<std::string, double>> values;
      for (const auto& [key, pts] : by) {
        // time = max(fixed, latency + transfer / efficiency): candidates for the efficiency from
        // every point's transfer, for the fixed cost from every point's time; best L1 relative error.
        std::vector<double> lat, x, t;
        for (const auto* p : pts) {
          const auto e = models::estimate_collective(collective_op_of(*p), unit);
          // a protocol's capped transfer (LL) is not scaled by the efficiency: with the latency
          lat.push_back(e.latency_us + e.capped_transfer_us);
          x.push_back(e.transfer_us - e.capped_transfer_us);
          t.push_back(p->time_us);
        }
        auto loss = [&](double fixed, double eff) {
          double l = 0;
          for (size_t i = 0; i < t.size(); ++i)
            l += std::fabs(std::max(fixed, lat[i] + x[i] / eff) / t[i] - 1);
          return l;
        };
        std::vector<double> effs{1.0}, fixeds{0.0};
        for (size_t i = 0; i < t.size(); ++i) {
          if (t[i] > lat[i] && x[i] > 0) effs.push_back(std::clamp(x[i] / (t[i] - lat[i]), 0.02, 1.0));
          fixeds.push_back(t[i]);
        }
        double best_fixed = 0, best_eff = 1, best_l = std::numeric_limits<double>::infinity();
        for (double f : fixeds)
          for (double e : effs)
            if (const double l = loss(f, e); l < best_l) best_l = l, best_fixed = f, best_eff = e;
        // Refine around the best pair.
        for (int round = 0; round < 2; ++round)
          for (int i = -20; i <= 20; ++i)
            for (int j = -20; j <= 20; ++j) {
              const double f = best_fixed * (1 + 0.01 * i), e = std::min(1.0, best_eff * (1 + 0.01 * j));
              if (const double l = loss(f, e); l < best_l) best_l = l, best_fixed = f, best_eff = e;
            }
        const bool nvls = uses_nvls(s, collective_op_of(*pts.front()));
        if (nvls)
          s.nccl.nvls_efficiency = best_eff;
        else
          s.nccl.bus_efficiency_for[key] = best_eff;
        s.nccl.base_latency_us_for[key] = best_fixed;
        values.emplace_back("nccl." + key + ".base_latency_us", best_fixed);
        values.emplace_back(nvls ? "nccl.nvls_efficiency" : "nccl." + key + ".bus_efficiency", best_eff);
        err += best_l;
        n += static_cast<int>(t.size());
      }
      const double mean = err / std::max(1, n);
      if (mean < best_err) {
        best_err = mean;
        best.system = s;
        best.values = values;
        best.values.emplace_back("nccl.ramp_bytes", s.nccl.ramp_bytes);
        best.values.emplace_back("nccl.ramp_exponent", s.nccl.ramp_exponent);
        best.rms_relative_fit = mean;
      }
    }
  }
  return best;
}

std::string profile_toml(const CollectiveFit& fit, const std::string& name, const std::string& extends,
                         const std::vector<std::string>& extra_lines, const std::string& provenance) {
  std::ostringstream out;
  out.precision(6);
  out << "# Written by `gpucast fabric-fit`; edit the measurement, not this file.\n";
  out << "name = \"" << name << "\"\nextends = \"" << extends << "\"\n";
  for (const auto& l : extra_lines) out << l << "\n";
  std::map<std::string, std::map<std::string, double>> sections;
  for (const auto& [key, value] : fit.values) {
    const auto dot = key.rfind('.');
    sections[key.substr(0, dot)][key.substr(dot + 1)] = value;
  }
  for (const auto& [section, keys] : sections) {
    out << "\n[" << section << "]\n";
    for (const auto& [k, v] : keys) out << k << " = " << v << "\n";
  }
  out << "\n[sources]\nnccl = \"" << provenance << " (fit mean |relative error| "
      << fit.rms_relative_fit * 100 << "% on the fit points)\"\n";
  return out.str();
}

}  // namespace gpucast::calib
