// Linking: each kernel to its runtime call (correlation), to the CPU op that launched it and the
// top-level op around it, on the main and the autograd thread; host syncs found.
#include <catch2/catch.hpp>

#include "support/gpu_builder.h"
#include "support/temp_dir.h"
#include "workloads/trace/trace_workload.h"

using namespace gpucast;

namespace {
std::string traces() { return (test::source_dir() / "tests" / "data" / "traces").string() + "/"; }
}  // namespace

SCENARIO("kernels link to their launching CPU op and the outermost op around it") {
  auto t = trace::read_kineto_trace(traces() + "linking.json");
  const auto links = trace::link_trace(t, trace::select_step(t, "2"));
  REQUIRE(links.activities.size() == 6);
  auto op_name = [&](std::int32_t i) { return i < 0 ? std::string() : t.cpu_ops[i].name; };
  CHECK(op_name(links.activities[0].innermost) == "aten::addmm");
  CHECK(op_name(links.activities[0].outermost) == "aten::linear");
  CHECK(op_name(links.activities[1].innermost) == "aten::native_layer_norm");
  CHECK(op_name(links.activities[1].outermost) == "aten::layer_norm");
  CHECK(op_name(links.activities[3].innermost) == "aten::_my_custom_op");  // the autograd thread
  CHECK(op_name(links.activities[4].innermost) == "aten::_local_scalar_dense");
  CHECK(op_name(links.activities[4].outermost) == "aten::item");
  CHECK(links.unlinked == 0);
  CHECK(links.syncs.size() == 1);
}

SCENARIO("an imported step keeps each kernel's CPU op, measurement and host delay") {
  auto t = trace::read_kineto_trace(traces() + "linking.json");
  const auto gpu = test::gpu_builder{}.build();
  const auto imp = trace::import_trace(t, trace::select_step(t, ""), gpu, "linking");
  REQUIRE(imp.records.size() == 6);
  CHECK(imp.records[0].cpu_op == "aten::addmm");
  CHECK(imp.records[0].outer_op == "aten::linear");
  CHECK(imp.records[0].measured_us == 30.0);
  CHECK(imp.records[0].recognized);
  CHECK_FALSE(imp.records[3].recognized);  // aten::_my_custom_op: scaled
  const auto& ks = imp.workload.kernels();
  // The step starts at 1001000 us; the GEMM's launch call returns at +44 us.
  CHECK(*ks[0].host_delay_us == Approx(44.0));
  // The memset after .item(): the sync starts 1 us after the copy's launch returned and waits
  // 6 us for the copy (launched at +310, done at +322); 508 - 315 - 6 = 187 us of host work.
  REQUIRE(ks[5].host_sync_at_us.has_value());
  CHECK(*ks[5].host_sync_at_us == Approx(1.0));
  CHECK(*ks[5].host_delay_us == Approx(187.0));
  CHECK(imp.syncs == 1);
  CHECK(imp.measured_step_us == Approx(900.0));
}

SCENARIO("a kernel that started when another stream's kernel ended waits for it") {
  auto t = trace::read_kineto_trace(traces() + "two_streams.json");
  const auto gpu = test::gpu_builder{}.build();
  const auto imp = trace::import_trace(t, trace::select_step(t, ""), gpu, "two_streams");
  const auto& ks = imp.workload.kernels();
  REQUIRE(ks.size() == 3);
  CHECK(ks[1].stream == 20);
  REQUIRE(ks[1].after.size() == 1);
  CHECK(ks[1].after[0] == ks[0].name);
  CHECK(ks[2].after.empty());  // stream order alone explains kernel_c
  CHECK(imp.stream_waits == 1);
}
