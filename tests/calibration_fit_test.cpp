// Calibration fitting: synthetic measurements made from known parameters must give them back.
#include <catch2/catch.hpp>

#include <cmath>

#include "calibration/fit.h"
#include "hardware/catalog.h"
#include "sim/op_predictor.h"
#include "support/gemm_builder.h"
#include "support/temp_dir.h"

using namespace gpucast;
using reports::Json;

namespace {

// What gpucast-microbench would print for a GPU with these properties.
struct Truth {
  double dram_gbps = 3000;          // sustained
  double inflight_latency_us = 0.5;  // L0
  double chase_ns = 400;
  double clock_mhz = 1800;
  double bf16_eff = 0.70;            // of the catalog's 989.4 TFLOP/s
  double gemm_overhead_us = 6;
  double launch_us = 3.0;
  double queued_us = 1.2;
  double pcie_gbps = 50;
  double pcie_latency_us = 4.5;
  double blocks_per_us = 2500;
  // GEMM times per size; empty: the simple law overhead + FLOPs / (peak x efficiency).
  std::vector<double> gemm_us;
};
const std::vector<double> kGemmSizes{6144.0, 8192.0, 10240.0};

Json record(const std::string& bench, std::initializer_list<std::pair<const char*, double>> fields) {
  Json r = Json::object();
  r.set("bench", bench);
  for (const auto& [k, v] : fields) r.set(k, v);
  return r;
}

Json synthetic(const Truth& t) {
  Json results = Json::array();
  for (const char* b : {"dram_read", "dram_write", "dram_memcpy_d2d"}) results.push(record(b, {{"gbps", t.dram_gbps}}));
  const double b_us = t.dram_gbps * 1e3;  // bytes per us
  for (double blocks : {1.0, 132.0, 264.0, 528.0}) {
    const double in_flight = blocks * 256 * 16;
    const double bw = blocks == 1 ? 30.0 : t.dram_gbps * (1 - std::exp(-in_flight / (b_us * t.inflight_latency_us)));
    results.push(record("dram_inflight", {{"blocks", blocks}, {"bytes_in_flight", in_flight}, {"gbps", bw}}));
  }
  results.push(record("latency_l2", {{"cycles", 250}}));
  results.push(record("latency_dram", {{"cycles", t.chase_ns * t.clock_mhz / 1e3}, {"ns", t.chase_ns}}));
  results.push(record("fp32_fma", {{"sm_clock_mhz", t.clock_mhz}}));
  for (size_t i = 0; i < kGemmSizes.size(); ++i) {
    const double n = kGemmSizes[i];
    const double flops = 2 * n * n * n;
    const double us = t.gemm_us.empty() ? t.gemm_overhead_us + flops / (989.4e6 * t.bf16_eff) : t.gemm_us[i];
    Json g = record("gemm", {{"m", n}, {"n", n}, {"k", n}, {"flops", flops}, {"time_us", us}});
    g.set("dtype", "bf16");
    results.push(g);
  }
  for (double k : {1.0, 2.0, 4.0, 8.0})
    results.push(record("launch_queued", {{"kernels", k}, {"time_us", t.launch_us + (k - 1) * t.queued_us}}));
  for (double bytes : {65536.0, 1048576.0, 16777216.0, 268435456.0})
    results.push(record("pcie_h2d", {{"bytes", bytes}, {"time_us", t.pcie_latency_us + bytes / (t.pcie_gbps * 1e3)}}));
  for (double blocks : {16384.0, 65536.0, 262144.0})
    results.push(record("dispatch_blocks", {{"blocks", blocks}, {"time_us", 2.5 + blocks / t.blocks_per_us}}));
  Json doc = Json::object();
  doc.set("format", "gpucast-microbench/1");
  doc.set("date", "2026-01-01T00:00:00Z");
  Json device = Json::object();
  device.set("name", "Synthetic H100");
  doc.set("device", device);
  doc.set("results", results);
  return doc;
}

const hw::Catalog& kCatalog() {
  static const hw::Catalog catalog(test::source_dir() / "hardware");
  return catalog;
}

// The profile `r` describes, with `sets` on top, as the simulator sees it.
sim::OpPredictor model_of(const calib::CalibrationResult& r, const std::vector<std::string>& sets) {
  const hw::Catalog catalog(test::source_dir() / "hardware");
  test::TempDir dir;
  const auto path = dir.write("fitted.toml", calib::calibrated_toml(r, "h100-sxm", "synthetic.json"));
  return sim::OpPredictor(catalog.load(path.string(), hw::parse_overrides(sets)));
}

wl::Op square_bf16_gemm(double n) {
  return test::gemm_builder{}.square(static_cast<wl::Count>(n)).build();
}

Json framework_probe(const std::vector<std::pair<double, double>>& elements_and_us) {
  Json results = Json::array();
  for (const auto& [elements, us] : elements_and_us)
    results.push(record("framework_kernel", {{"elements", elements}, {"inputs", 2}, {"time_us", us}}));
  Json doc = Json::object();
  doc.set("results", results);
  return doc;
}

}  // namespace

SCENARIO("fitting synthetic measurements recovers the parameters they were made from") {
  const hw::Catalog catalog(test::source_dir() / "hardware");
  const Truth t;
  const auto r = calib::fit_calibration(synthetic(t), nullptr, catalog, "h100-sxm");
  auto value = [&](const std::string& key) {
    INFO(key);
    REQUIRE(r.value(key));
    return *r.value(key);
  };
  CHECK(value("efficiency.dram_bandwidth") == Approx(t.dram_gbps / 3350).epsilon(1e-6));
  // The plain law has no tiles or waves; the model's GEMM does, so this recovers it only roughly.
  CHECK(value("efficiency.tensor.bf16") == Approx(t.bf16_eff).epsilon(0.05));
  CHECK(value("efficiency.memory_parallelism") == Approx(t.chase_ns / (t.inflight_latency_us * 1e3)).epsilon(1e-6));
  CHECK(value("sm.sustained_clock_mhz") == Approx(t.clock_mhz));
  CHECK(value("launch.kernel_us") == Approx(t.launch_us));
  CHECK(value("launch.queued_kernel_us") == Approx(t.queued_us).epsilon(1e-6));
  CHECK(value("efficiency.pcie") == Approx(t.pcie_gbps / 64).epsilon(1e-6));
  CHECK(value("host.transfer_latency_us") == Approx(t.pcie_latency_us).epsilon(1e-6));
  CHECK(value("launch.blocks_per_us") == Approx(t.blocks_per_us).epsilon(1e-6));
  CHECK(value("memory.sm_bandwidth_gbps") == Approx(30));
  for (const auto& f : r.fits) {
    INFO(f.name);
    if (f.name.find("GEMM") == std::string::npos) CHECK(f.rms_relative_residual < 1e-6);  // exact data, exact fit
  }
}

SCENARIO("GEMM efficiency is the one that makes the model reproduce the library's times") {
  GIVEN("GEMM times the model itself predicts at efficiency 0.62, one of them 25% slow") {
    const Truth first;
    const auto pass1 = calib::fit_calibration(synthetic(first), nullptr, kCatalog(), "h100-sxm");
    auto truth_model = model_of(pass1, {"efficiency.tensor.bf16=0.62"});
    Truth t;
    for (double n : kGemmSizes) t.gemm_us.push_back(truth_model.predict(square_bf16_gemm(n)).duration_us);
    t.gemm_us[1] *= 1.25;
    WHEN("the fit runs") {
      const auto r = calib::fit_calibration(synthetic(t), nullptr, kCatalog(), "h100-sxm");
      THEN("the median ignores the slow run and recovers 0.62") {
        CHECK(*r.value("efficiency.tensor.bf16") == Approx(0.62).epsilon(1e-3));
      }
    }
  }
}

SCENARIO("the kernel floor is what the model does not already charge a tiny framework kernel") {
  const hw::Catalog catalog(test::source_dir() / "hardware");
  const auto pass1 = calib::fit_calibration(synthetic(Truth{}), nullptr, catalog, "h100-sxm");
  auto truth_model = model_of(pass1, {"launch.kernel_us=4.2"});
  auto add = [&](double n) {
    wl::ElementwiseOp e;
    e.elements = static_cast<wl::Count>(n);
    e.dtype = e.out_dtype = DataType::fp32;
    e.inputs = 2;
    return truth_model.predict(wl::Op(e)).duration_us;
  };
  GIVEN("20 calls in two clusters 0.6 us apart (13 on the floor, 6 above it) and one stray 20 us slow") {
    std::vector<std::pair<double, double>> calls;
    for (int i = 0; i < 20; ++i) {
      const double n = i % 3 == 0 ? 256 : i % 3 == 1 ? 1024 : 4096;
      calls.emplace_back(n, add(n) + (i < 13 ? 0.0 : i < 19 ? 0.6 : 20.0));
    }
    const auto probe = framework_probe(calls);
    const auto r = calib::fit_calibration(synthetic(Truth{}), &probe, catalog, "h100-sxm");
    THEN("it is the mean of the middle 16 calls: the stray and the extremes dropped, the clusters weighed") {
      CHECK(*r.value("launch.kernel_us") == Approx(4.2 + 0.6 * 5 / 16).epsilon(1e-6));
    }
  }
}

SCENARIO("a pinned copy's fixed cost comes from the smallest copies, its rate from all of them") {
  GIVEN(
      "copies of 64 KB to 256 MB both ways at 55 GB/s, 5.0 us fixed host-to-device and 3.8 us back; "
      "the 1 MB host-to-device copy 15% slow, the 256 MB one 0.1% fast") {
    const hw::Catalog catalog(test::source_dir() / "hardware");
    const Json base = synthetic(Truth{});
    Json results = Json::array();
    for (const auto& r : base.at("results").as_array())
      if (r.at("bench").as_string() != "pcie_h2d") results.push(r);
    for (double bytes : {65536.0, 1048576.0, 16777216.0, 268435456.0}) {
      const double us = bytes / 55e3;
      const double scatter = bytes == 1048576.0 ? 1.15 : bytes > 1e8 ? 0.999 : 1.0;
      results.push(record("pcie_h2d", {{"bytes", bytes}, {"time_us", (5.0 + us) * scatter}}));
      results.push(record("pcie_d2h", {{"bytes", bytes}, {"time_us", 3.8 + us}}));
    }
    Json doc = Json::object();
    doc.set("results", results);
    WHEN("the fit runs") {
      const auto r = calib::fit_calibration(doc, nullptr, catalog, "h100-sxm");
      THEN("the fixed cost is the two directions' mean, the rate the large copies' one") {
        // The least-squares intercept over these points is 5.08 us.
        CHECK(*r.value("host.transfer_latency_us") == Approx(4.4).margin(0.01));
        CHECK(*r.value("efficiency.pcie") * 64 == Approx(55).epsilon(0.002));
      }
    }
  }
}

SCENARIO("a measurement beyond the datasheet peak is recorded as 1 and noted") {
  const hw::Catalog catalog(test::source_dir() / "hardware");
  Truth t;
  t.dram_gbps = 3500;  // more than the 3350 GB/s datasheet
  const auto r = calib::fit_calibration(synthetic(t), nullptr, catalog, "h100-sxm");
  CHECK(*r.value("efficiency.dram_bandwidth") == 1.0);
  bool noted = false;
  for (const auto& n : r.notes) noted = noted || n.find("efficiency.dram_bandwidth") != std::string::npos;
  CHECK(noted);
}

SCENARIO("a calibrated profile extends its catalog entry and loads") {
  const auto catalog = hw::Catalog(test::source_dir() / "hardware");
  const auto r = calib::fit_calibration(synthetic(Truth{}), nullptr, catalog, "h100-sxm");
  test::TempDir dir;
  const auto path = dir.write("h100-cal.toml", calib::calibrated_toml(r, "h100-sxm", "h100-cal.microbench.json"));
  const auto gpu = catalog.load(path.string());
  CHECK(gpu.sm.count == 132);  // inherited
  CHECK(gpu.efficiency.tensor.at(DataType::bf16) == Approx(*r.value("efficiency.tensor.bf16")));
  CHECK(gpu.launch.kernel_us == Approx(3.0));
  CHECK(std::get<std::string>(gpu.values.at("calibration.gpu").value) == "Synthetic H100");
}

SCENARIO("line fits report their residual") {
  const auto f = calib::fit_line({1, 2, 3, 4}, {3, 5, 7, 9.5});
  CHECK(f.slope == Approx(2.15).epsilon(0.01));
  CHECK(f.rms_relative > 0);
  CHECK_THROWS(calib::fit_line({1}, {2}));
}

SCENARIO("the decode SDPA call's host time is the mean of the probe runs' decode calls") {
  const hw::Catalog catalog(test::source_dir() / "hardware");
  Json results = Json::array();
  results.push(record("eager_host", {{"us_per_op", 7.0}}));
  auto call = [](const std::string& op, double us) {
    Json c = record("host_per_call", {{"us_per_call", us}});
    c.set("op", op);
    return c;
  };
  for (double us : {20.0, 30.0, 16.0}) results.push(call("sdpa_decode", us));
  results.push(call("matmul", 17.0));
  Json probe = Json::object();
  probe.set("results", results);
  const auto r = calib::fit_calibration(synthetic(Truth{}), &probe, catalog, "h100-sxm");
  REQUIRE(r.value("launch.host_attention_decode_us"));
  CHECK(*r.value("launch.host_attention_decode_us") == Approx(22.0));
  CHECK(*r.value("launch.host_library_us") == Approx(10.0));  // the matmul less torch.add; decode not in it
}
