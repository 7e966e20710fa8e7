#include "calibration/fit.h"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <sstream>

#include "hardware/catalog.h"
#include "common/dtype.h"
#include "common/errors.h"
#include "reports/units.h"
#include "sim/op_predictor.h"
#include "workloads/op.h"

namespace gpucast::calib {
using reports::Json;

std::optional<double> CalibrationResult::value(const std::string& key) const {
  for (const auto& v : values)
    if (v.key == key) return v.value;
  return std::nullopt;
}

LineFit fit_line(const std::vector<double>& x, const std::vector<double>& y) {
  if (x.size() != y.size() || x.size() < 2) throw Error("a line fit needs at least two points");
  const auto n = static_cast<Eigen::Index>(x.size());
  Eigen::MatrixXd a(n, 2);
  Eigen::VectorXd b(n);
  for (Eigen::Index i = 0; i < n; ++i) {
    a(i, 0) = 1.0;
    a(i, 1) = x[static_cast<size_t>(i)];
    b(i) = y[static_cast<size_t>(i)];
  }
  const Eigen::VectorXd coef = a.colPivHouseholderQr().solve(b);
  LineFit f{coef(0), coef(1), 0};
  double sum = 0;
  for (Eigen::Index i = 0; i < n; ++i) {
    const double fitted = coef(0) + coef(1) * a(i, 1);
    const double rel = b(i) != 0 ? (fitted - b(i)) / b(i) : 0;
    sum += rel * rel;
  }
  f.rms_relative = std::sqrt(sum / double(n));
  return f;
}

LineFit fit_through_origin(const std::vector<double>& x, const std::vector<double>& y) {
  if (x.size() != y.size() || x.empty()) throw Error("a fit needs at least one point");
  const auto n = static_cast<Eigen::Index>(x.size());
  Eigen::MatrixXd a(n, 1);
  Eigen::VectorXd b(n);
  for (Eigen::Index i = 0; i < n; ++i) {
    a(i, 0) = x[static_cast<size_t>(i)];
    b(i) = y[static_cast<size_t>(i)];
  }
  const Eigen::VectorXd coef = a.colPivHouseholderQr().solve(b);
  LineFit f{0, coef(0), 0};
  double sum = 0;
  for (Eigen::Index i = 0; i < n; ++i) {
    const double rel = b(i) != 0 ? (coef(0) * a(i, 0) - b(i)) / b(i) : 0;
    sum += rel * rel;
  }
  f.rms_relative = std::sqrt(sum / double(n));
  return f;
}

namespace {

// A fit whose residual exceeds this is reported but not used.
constexpr double kUsableResidual = 0.15;

std::vector<const Json*> records(const Json& doc, const std::string& bench) {
  std::vector<const Json*> out;
  const Json* results = doc.get("results");
  if (!results || !results->is_array()) return out;
  for (const auto& r : results->as_array())
    if (const Json* b = r.get("bench"); b && b->is_string() && b->as_string() == bench) out.push_back(&r);
  return out;
}

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const size_t h = v.size() / 2;
  return v.size() % 2 ? v[h] : 0.5 * (v[h - 1] + v[h]);
}

// The mean of the middle values, a tenth of them (rounded down) dropped at each end: the centre of
// a two-cluster sample that the median would snap to one cluster of, robust to a stray value.
double trimmed_mean(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const size_t cut = v.size() / 10;
  double sum = 0;
  for (size_t i = cut; i < v.size() - cut; ++i) sum += v[i];
  return sum / double(v.size() - 2 * cut);
}

double num(const Json& r, const std::string& key) {
  const Json* v = r.get(key);
  if (!v || !v->is_number()) throw Error("microbenchmark record lacks numeric '" + key + "'");
  return v->as_number();
}

class Fitter {
 public:
  Fitter(const Json& mb, const Json* fw, const hw::Catalog& catalog, std::string base_id, CalibrationResult& out)
      : mb_(mb), fw_(fw), catalog_(catalog), base_id_(std::move(base_id)), g_(catalog.load(base_id_)), out_(out) {}

  void set(const std::string& key, double v, const std::string& how, bool fraction = false) {
    // A later, better measurement of the same key replaces an earlier one.
    out_.values.erase(std::remove_if(out_.values.begin(), out_.values.end(),
                                     [&](const FittedValue& f) { return f.key == key; }),
                      out_.values.end());
    if (!std::isfinite(v) || v <= 0) {
      out_.notes.push_back(key + ": measurement gave " + reports::sig3(v) + ", left to the catalog");
      return;
    }
    if (fraction && v > 1) {
      out_.notes.push_back(key + ": measured " + reports::fixed(v, 3) + " of the datasheet peak, recorded as 1");
      v = 1;
    }
    out_.values.push_back({key, v, how});
  }
  void quality(const std::string& name, int points, double rms) { out_.fits.push_back({name, points, rms}); }
  void missing(const std::string& what) { out_.notes.push_back("left to the catalog: no " + what); }

  void run() {
    clock();
    dram();
    inflight();
    l2();
    latency();
    first_touch();
    compute();
    launch();
    dispatch();
    pcie();
    framework();
    // Last: these go through the simulator with everything above, so that the model adds the
    // fitted terms back up to the measured times.
    kernel_floor();
    gemm();
  }

 private:
  const Json& mb_;
  const Json* fw_;
  const hw::Catalog& catalog_;
  std::string base_id_;
  hw::GpuSpec g_;
  CalibrationResult& out_;
  double clock_mhz_ = 0;
  double dram_gbps_ = 0;
  double chase_ns_ = 0;

  void clock() {
    const auto r = records(mb_, "fp32_fma");
    clock_mhz_ = g_.sm.sustained_clock_mhz;
    if (r.empty()) return missing("SM clock");
    clock_mhz_ = num(*r.front(), "sm_clock_mhz");
    set("sm.sustained_clock_mhz", clock_mhz_, "SM cycles over global-timer ns during the FP32 FMA benchmark");
  }

  void dram() {
    std::vector<double> rates;
    for (const char* b : {"dram_read", "dram_write", "dram_memcpy_d2d"})
      for (const auto* r : records(mb_, b)) rates.push_back(num(*r, "gbps"));
    if (rates.empty()) return missing("DRAM bandwidth");
    double sum = 0;
    for (double r : rates) sum += r;
    dram_gbps_ = sum / double(rates.size());
    set("efficiency.dram_bandwidth", dram_gbps_ / g_.memory.bandwidth_gbps,
        "mean of read, write and cudaMemcpy D2D over 1 GiB: " + reports::sig3(dram_gbps_) + " GB/s of " +
            reports::sig3(g_.memory.bandwidth_gbps),
        true);
    // The copy engines move a device-to-device cudaMemcpy at their own rate, apart from what kernels
    // stream (models/memory_op_models.cpp, CopyModel).
    const auto copies = records(mb_, "dram_memcpy_d2d");
    if (copies.empty()) return missing("device-to-device memcpy rate");
    double copy_gbps = 0;
    for (const auto* r : copies) copy_gbps += num(*r, "gbps") / double(copies.size());
    set("efficiency.copy_engine", copy_gbps / g_.memory.bandwidth_gbps,
        "cudaMemcpy D2D over 1 GiB: " + reports::sig3(copy_gbps) + " GB/s of " +
            reports::sig3(g_.memory.bandwidth_gbps),
        true);
  }

  void inflight() {
    const auto r = records(mb_, "dram_inflight");
    if (r.empty()) return missing("bytes-in-flight sweep");
    // One SM: the best a single block reaches, whatever it keeps in flight.
    double one_sm = 0;
    for (const auto* p : r)
      if (num(*p, "blocks") == 1) one_sm = std::max(one_sm, num(*p, "gbps"));
    if (one_sm > 0) set("memory.sm_bandwidth_gbps", one_sm, "best single-block bandwidth of the in-flight sweep");
    // Whole GPU: BW = B (1 - exp(-x / (B L0))). With B the sustained bandwidth,
    // -ln(1 - BW/B) = x / (B L0) is a line through the origin in x/B; its slope is 1/L0.
    const double b = dram_gbps_ > 0 ? dram_gbps_ : g_.memory.bandwidth_gbps * g_.efficiency.dram_bandwidth;
    std::vector<double> xs, ys;
    for (const auto* p : r) {
      const double blocks = num(*p, "blocks");
      const double bw = num(*p, "gbps");
      const double per_sm = num(*p, "bytes_in_flight") / std::min(blocks, double(g_.sm.count));
      // Every SM busy, none asking for more than it can keep outstanding, not yet saturated.
      if (blocks < g_.sm.count || per_sm > 16384 || bw >= 0.95 * b) continue;
      xs.push_back(num(*p, "bytes_in_flight") / (b * 1e3));  // bytes / (bytes/us) = us
      ys.push_back(-std::log(1 - bw / b));
    }
    if (xs.empty()) return missing("unsaturated whole-GPU in-flight points");
    const LineFit f = fit_through_origin(xs, ys);
    const double latency_us = 1.0 / f.slope;
    quality("in-flight curve (L0 = " + reports::sig3(latency_us * 1e3) + " ns)", static_cast<int>(xs.size()),
            f.rms_relative);
    if (f.rms_relative > kUsableResidual) return missing("consistent in-flight curve");
    inflight_latency_ns_ = latency_us * 1e3;
  }
  double inflight_latency_ns_ = 0;

  void l2() {
    const auto r = records(mb_, "l2_read");
    if (r.empty()) return missing("L2 bandwidth");
    // Working sets well inside the L2 (one launch re-reads them many times): the median rate.
    std::vector<double> rates;
    const double l2_bytes = g_.cache.l2_mb * 1024 * 1024;
    for (const auto* p : r) {
      const double ws = num(*p, "working_set_bytes");
      if (ws <= 0.6 * l2_bytes && ws >= 4e6) rates.push_back(num(*p, "gbps"));
    }
    if (rates.size() < 2) return missing("L2-resident working sets");
    std::sort(rates.begin(), rates.end());
    const double gbps = rates[rates.size() / 2];
    double spread = 0;
    for (double v : rates) spread += (v - gbps) * (v - gbps) / (gbps * gbps);
    quality("L2-resident read rate (median of " + std::to_string(rates.size()) + ")", static_cast<int>(rates.size()),
            std::sqrt(spread / double(rates.size())));
    if (gbps < dram_gbps_) return missing("L2 rate above DRAM's (measured " + reports::sig3(gbps) + " GB/s)");
    set("efficiency.l2_bandwidth", gbps / g_.cache.l2_bandwidth_gbps,
        "median L2-resident re-read rate " + reports::sig3(gbps) + " GB/s of the nominal " +
            reports::sig3(g_.cache.l2_bandwidth_gbps),
        true);
  }

  void latency() {
    double l2_cycles = 0;
    auto take = [&](const char* bench, const char* key) {
      const auto r = records(mb_, bench);
      if (r.empty()) return missing(bench);
      const double cycles = num(*r.front(), "cycles");
      if (std::string(bench) == "latency_l2") l2_cycles = cycles;
      // Shared memory and L1 are faster than L2; anything else is a broken measurement.
      if ((std::string(bench) == "latency_shared" || std::string(bench) == "latency_l1") && l2_cycles > 0 &&
          cycles >= l2_cycles)
        return missing(std::string("plausible ") + bench + " (measured " + reports::sig3(cycles) + " cycles)");
      set(key, cycles, std::string("pointer chase (") + bench + ")");
      if (std::string(bench) == "latency_dram") chase_ns_ = num(*r.front(), "ns");
    };
    take("latency_l2", "latency.l2_cycles");
    take("latency_l1", "latency.l1_cycles");
    take("latency_dram", "latency.dram_cycles");
    take("latency_shared", "latency.shared_cycles");
    if (chase_ns_ > 0 && inflight_latency_ns_ > 0)
      set("efficiency.memory_parallelism", chase_ns_ / inflight_latency_ns_,
          "pointer-chase " + reports::sig3(chase_ns_) + " ns over the in-flight curve's " +
              reports::sig3(inflight_latency_ns_) + " ns",
          true);
  }

  void first_touch() {
    const auto r = records(mb_, "first_touch");
    if (r.empty()) return missing("first-touch");
    for (const auto* p : r) {
      if (num(*p, "lines") != 1) continue;
      // A one-line kernel after the flush, minus an empty kernel timed the same way, minus the
      // DRAM round trip the model already charges every kernel's first block.
      const double extra = num(*p, "cold_us") - num(*p, "empty_us") - chase_ns_ * 1e-3;
      set("latency.first_touch_us", std::max(0.05, extra), "one-line kernel after the L2 flush minus an empty kernel");
    }
  }

  void compute() {
    if (const auto r = records(mb_, "sfu_ex2"); !r.empty()) {
      const double nominal = g_.compute.sfu_tops * clock_mhz_ / g_.sm.sustained_clock_mhz;
      set("efficiency.sfu", num(*r.front(), "tops") / nominal, "ex2.approx throughput over 16/clk/SM", true);
    }
    double mma = 0;
    for (const auto* p : records(mb_, "mma_sync_bf16")) mma = std::max(mma, num(*p, "tflops"));
    if (mma > 0 && g_.has_tensor(DataType::bf16))
      set("efficiency.mma_sync", mma / g_.tensor_tflops(DataType::bf16),
          "warp-level mma.sync m16n8k16 bf16: " + reports::sig3(mma) + " TFLOP/s", true);
  }

  // The description the simulator would predict with: the catalog entry with the values fitted so
  // far and `extra` on top, resolved as loading the calibrated profile will (derived keys follow).
  [[nodiscard]] hw::GpuSpec fitted_spec(const std::vector<std::pair<std::string, double>>& extra) const {
    std::vector<hw::Override> sets;
    auto add = [&](const std::string& key, double v) {
      sets.push_back({key, FlatValue{v, SourceLocation{"calibration fit"}}});
    };
    for (const auto& v : out_.values) add(v.key, v.value);
    for (const auto& [key, v] : extra) add(key, v);
    return catalog_.load(base_id_, sets);
  }

  // Library GEMM efficiency per data type: the fraction that makes the model's GEMM (tile choice,
  // waves, launch) reproduce the cuBLASLt times, as the median over sizes and layouts (a single
  // run of one size moves by up to 10%). FP64 has no workload dtype: its rate is taken directly.
  void gemm() {
    std::map<std::string, std::vector<const Json*>> by_type;
    for (const auto* p : records(mb_, "gemm"))
      if (p->get("time_us")) by_type[p->at("dtype").as_string()].push_back(p);
    for (const auto& [type, points] : by_type) {
      const std::string how = "cuBLASLt " + type + " GEMMs: median of " + std::to_string(points.size()) +
                              " runs over square sizes and layouts, normal data";
      if (type == "fp64") {
        std::vector<double> effs;
        for (const auto* p : points) effs.push_back(num(*p, "flops") / (g_.compute.fp64_tflops * 1e6 * num(*p, "time_us")));
        set("efficiency.fp64", median(effs), how, true);
        continue;
      }
      const auto t = parse_dtype(type);
      if (!t) continue;
      const std::string key = type == "fp32" ? "efficiency.fp32" : "efficiency.tensor." + type;
      if (type != "fp32" && !g_.has_tensor(*t)) continue;
      gemm_efficiency(key, *t, points, how);
    }
  }

  void gemm_efficiency(const std::string& key, DataType t, const std::vector<const Json*>& points,
                       const std::string& how) {
    const DataType out_type = t == DataType::fp8 ? DataType::bf16 : t == DataType::int8 ? DataType::fp32 : t;
    auto predict = [&](double eff) {
      sim::OpPredictor model(fitted_spec({{key, eff}}));
      std::vector<sim::OpTiming> timings;
      for (const auto* p : points) {
        wl::GemmOp op;
        op.m = static_cast<wl::Count>(num(*p, "m"));
        op.n = static_cast<wl::Count>(num(*p, "n"));
        op.k = static_cast<wl::Count>(num(*p, "k"));
        op.dtype = t;
        op.out_dtype = out_type;
        timings.push_back(model.predict(wl::Op(op)));
      }
      return timings;
    };
    // Compute-bound kernel time scales as 1/efficiency; iterate for the parts that do not.
    double eff = 1.0;
    for (int round = 0; round < 4; ++round) {
      const auto timings = predict(eff);
      std::vector<double> ratios;
      for (size_t i = 0; i < points.size(); ++i) {
        const double exec_measured = num(*points[i], "time_us") - timings[i].overhead_us;
        if (exec_measured > 0) ratios.push_back(timings[i].exec_us / exec_measured);
      }
      if (ratios.empty()) return missing(key + " GEMM timings");
      eff = std::min(1.0, eff * median(ratios));
    }
    const auto timings = predict(eff);
    double sum = 0;
    for (size_t i = 0; i < points.size(); ++i) {
      const double measured = num(*points[i], "time_us");
      sum += std::pow((timings[i].duration_us - measured) / measured, 2);
    }
    quality("GEMM " + std::string(to_string(t)) + " model vs cuBLASLt", static_cast<int>(points.size()),
            std::sqrt(sum / double(points.size())));
    set(key, eff, how, true);
  }

  void launch() {
    const auto q = records(mb_, "launch_queued");
    if (!q.empty()) {
      std::vector<double> xs, ys;
      for (const auto* p : q) {
        xs.push_back(num(*p, "kernels"));
        ys.push_back(num(*p, "time_us"));
        if (num(*p, "kernels") == 1) set("launch.kernel_us", num(*p, "time_us"), "events around one empty kernel queued behind busy work");
      }
      const LineFit f = fit_line(xs, ys);
      quality("queued launches vs kernels", static_cast<int>(xs.size()), f.rms_relative);
      set("launch.queued_kernel_us", f.slope, "slope of event time over 1..16 queued empty kernels");
    } else {
      missing("launch");
    }
    const auto gr = records(mb_, "launch_graph");
    if (gr.size() >= 2) {
      std::vector<double> xs, ys;
      for (const auto* p : gr) {
        xs.push_back(num(*p, "kernels"));
        ys.push_back(num(*p, "time_us"));
      }
      const LineFit f = fit_line(xs, ys);
      set("launch.graph_kernel_us", f.slope, "slope of graph replay time over its kernel count");
    }
  }

  void dispatch() {
    const auto r = records(mb_, "dispatch_blocks");
    if (r.size() < 2) return missing("block dispatch");
    std::vector<double> xs, ys;
    for (const auto* p : r) {
      if (num(*p, "blocks") < 16384) continue;
      xs.push_back(num(*p, "blocks"));
      ys.push_back(num(*p, "time_us"));
    }
    if (xs.size() < 2) return missing("large-grid dispatch points");
    const LineFit f = fit_line(xs, ys);
    quality("empty-block grid time vs blocks", static_cast<int>(xs.size()), f.rms_relative);
    set("launch.blocks_per_us", 1.0 / f.slope, "slope of an empty 128-thread grid's time over its blocks");
  }

  // Pinned copies, both directions: the rate is the least-squares slope over every transfer (the
  // largest ones set it), and the fixed cost is the smallest transfer of each direction less its
  // bytes at that rate, averaged over the directions (one key serves both). The least-squares
  // intercept would be set by the largest transfers' scatter instead: 0.1% of a 256 MB copy is 5 us
  // (it gave 4.2 us on the H100 and 5.9 us on the H200, whose 64 KB copies took 6.2 and 5.8 us).
  void pcie() {
    std::vector<double> xs, ys;
    std::vector<std::pair<double, double>> smallest;  // per direction: bytes, time
    for (const char* bench : {"pcie_h2d", "pcie_d2h"}) {
      const auto r = records(mb_, bench);
      if (r.empty()) continue;
      const Json* least = r.front();
      for (const auto* p : r) {
        xs.push_back(num(*p, "bytes"));
        ys.push_back(num(*p, "time_us"));
        if (num(*p, "bytes") < num(*least, "bytes")) least = p;
      }
      smallest.emplace_back(num(*least, "bytes"), num(*least, "time_us"));
    }
    if (xs.size() < 2) return missing("PCIe");
    const LineFit f = fit_line(xs, ys);
    double latency = 0;
    for (const auto& [bytes, us] : smallest) latency += (us - bytes * f.slope) / double(smallest.size());
    double sum = 0;
    for (size_t i = 0; i < xs.size(); ++i) sum += std::pow((latency + xs[i] * f.slope - ys[i]) / ys[i], 2);
    quality("pinned host<->device copy time vs bytes", static_cast<int>(xs.size()),
            std::sqrt(sum / double(xs.size())));
    const double gbps = 1.0 / f.slope * 1e-3;
    set("efficiency.pcie", gbps / g_.pcie_gbps, "pinned cudaMemcpyAsync slope " + reports::sig3(gbps) + " GB/s", true);
    set("host.transfer_latency_us", latency,
        "smallest pinned copy of each direction less its bytes at that rate, mean of " +
            std::to_string(smallest.size()) + " directions");
  }

  // What a framework kernel pays to launch as do_bench sees it: the smallest torch.add calls,
  // less everything else the model charges them (first touch, DRAM round trips, index setup),
  // averaged over sizes and repeated do_bench calls. The calls land in two clusters about 0.6 us
  // apart (the H200 probe: 7 of 20 at 4.3-4.4 us, 13 at 4.9-5.0): the median snaps to the larger
  // cluster, the trimmed mean gives the expected call (the suite's small pointwise cases, dev and
  // calibration, have the same centre: H100 median 5.09 us, H200 4.77).
  void kernel_floor() {
    if (!fw_) return;
    const auto k = records(*fw_, "framework_kernel");
    if (k.empty()) return missing("framework kernel timing");
    constexpr double kPlaceholderUs = 1.0;
    sim::OpPredictor model(fitted_spec({{"launch.kernel_us", kPlaceholderUs}}));
    std::vector<double> floors, measured;
    for (const auto* p : k) {
      wl::ElementwiseOp op;
      op.elements = static_cast<wl::Count>(num(*p, "elements"));
      op.dtype = op.out_dtype = DataType::fp32;
      op.inputs = p->get("inputs") ? static_cast<int>(num(*p, "inputs")) : 2;
      const double rest = model.predict(wl::Op(op)).duration_us - kPlaceholderUs;
      floors.push_back(num(*p, "time_us") - rest);
      measured.push_back(num(*p, "time_us"));
    }
    const double floor = trimmed_mean(floors);
    set("launch.kernel_us", floor,
        "do_bench of torch.add at " + std::to_string(k.size()) +
            " runs of 256..4096 elements (trimmed mean " + reports::sig3(trimmed_mean(measured)) +
            " us) less what the model charges them besides the launch");
  }

  void framework() {
    if (!fw_) return missing("framework probe");
    const auto r = records(*fw_, "eager_host");
    if (!r.empty()) {
      double sum = 0;
      for (const auto* p : r) sum += num(*p, "us_per_op");
      set("launch.host_eager_us", sum / double(r.size()), "host time per eager torch.add (mean of " +
                                                               std::to_string(r.size()) + " probe runs)");
    }
    // Library ops (cuBLAS matmul, norms, embedding, SDPA) cost more host time than a pointwise op:
    // dispatcher layers, heuristics, descriptor setup. Mean of those calls less torch.add.
    const auto calls = records(*fw_, "host_per_call");
    if (!r.empty() && !calls.empty()) {
      double add = 0;
      for (const auto* p : r) add += num(*p, "us_per_op");
      add /= double(r.size());
      double sum = 0;
      int n = 0;
      for (const auto* p : calls) {
        const auto* op = p->get("op");
        const std::string name = op && op->is_string() ? op->as_string() : "";
        if (name == "matmul" || name == "rms_norm" || name == "embedding" || name == "sdpa_prefill") {
          sum += num(*p, "us_per_call");
          ++n;
        }
      }
      if (n > 0)
        set("launch.host_library_us", std::max(0.0, sum / n - add),
            "host time per matmul, rms_norm, embedding and SDPA call (mean of " + std::to_string(n) +
                ") less torch.add's");
    }
    // The decode SDPA call (the library's split-KV path) costs the host its own time per call.
    double decode = 0;
    int decodes = 0;
    for (const auto* p : calls) {
      const auto* op = p->get("op");
      if (op && op->is_string() && op->as_string() == "sdpa_decode") {
        decode += num(*p, "us_per_call");
        ++decodes;
      }
    }
    if (decodes > 0)
      set("launch.host_attention_decode_us", decode / decodes,
          "host time per eager cuDNN SDPA decode call (mean of " + std::to_string(decodes) + " probe runs)");
  }
};

std::string quote(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

}  // namespace

Json merge_measurements(const std::vector<Json>& docs) {
  if (docs.empty()) throw Error("no measurement files");
  Json merged = docs.front();
  Json results = Json::array();
  for (const auto& d : docs)
    if (const Json* r = d.get("results"); r && r->is_array())
      for (const auto& item : r->as_array()) results.push(item);
  merged.set("results", results);
  return merged;
}

CalibrationResult fit_calibration(const Json& microbench, const Json* framework, const hw::Catalog& catalog,
                                  const std::string& base_id) {
  CalibrationResult out;
  if (const Json* d = microbench.get("device")) {
    if (const Json* n = d->get("name"); n && n->is_string()) out.gpu_name = n->as_string();
    if (const Json* v = d->get("cuda_driver_version"); v && v->is_number())
      out.cuda = std::to_string(int(v->as_number()) / 1000) + "." + std::to_string(int(v->as_number()) % 1000 / 10);
  }
  if (const Json* date = microbench.get("date"); date && date->is_string()) out.date = date->as_string();
  Fitter(microbench, framework, catalog, base_id, out).run();
  return out;
}

std::string calibrated_toml(const CalibrationResult& r, const std::string& base_id, const std::string& measurements_file) {
  std::ostringstream t;
  t << "# Calibrated by `gpucast calibrate` from microbenchmarks run on " << r.gpu_name << " (" << r.date << ").\n"
    << "# Each value below is measured; everything else comes from `" << base_id << "` and its architecture.\n"
    << "extends = " << quote(base_id) << "\n\n";
  // Group values by section, in the order they were fitted.
  std::vector<std::string> sections;
  std::map<std::string, std::vector<const FittedValue*>> by_section;
  for (const auto& v : r.values) {
    const auto dot = v.key.rfind('.');
    const std::string section = v.key.substr(0, dot);
    if (!by_section.count(section)) sections.push_back(section);
    by_section[section].push_back(&v);
  }
  for (const auto& section : sections) {
    t << "[" << section << "]\n";
    for (const auto* v : by_section[section]) {
      std::ostringstream num;
      num.precision(6);
      num << v->value;
      std::string text = num.str();
      if (text.find_first_of(".e") == std::string::npos) text += ".0";
      t << v->key.substr(section.size() + 1) << " = " << text << "  # " << v->how << "\n";
    }
    t << "\n";
  }
  std::string fit;
  for (const auto& f : r.fits)
    fit += (fit.empty() ? "" : "; ") + f.name + ": " + std::to_string(f.points) + " points, rms " +
           reports::percent(f.rms_relative_residual);
  t << "[calibration]\n"
    << "gpu = " << quote(r.gpu_name) << "\n"
    << "date = " << quote(r.date) << "\n";
  if (!r.cuda.empty()) t << "cuda = " << quote(r.cuda) << "\n";
  if (!r.driver.empty()) t << "driver = " << quote(r.driver) << "\n";
  t << "measurements = " << quote(measurements_file) << "\n"
    << "fit = " << quote(fit) << "\n\n";
  t << "[sources]\n";
  for (const auto& section : sections)
    t << quote(section) << " = " << quote("gpucast calibrate on " + r.gpu_name + ", " + r.date + ": " + measurements_file) << "\n";
  for (const auto& [key, source] : r.key_sources) t << quote(key) << " = " << quote(source) << "\n";
  return t.str();
}

}  // namespace gpucast::calib
