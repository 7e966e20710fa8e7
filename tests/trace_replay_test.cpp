// Replaying a trace's host: kernels wait for their host launch, the host stalls at syncs, host
// speed scales host time; scaled kernels follow their bound class; a dumped workload predicts the same.
#include <catch2/catch.hpp>

#include "sim/simulator.h"
#include "sim/traced_timing.h"
#include "support/gpu_builder.h"
#include "support/temp_dir.h"
#include "workloads/trace/trace_workload.h"
#include "workloads/workload_file.h"

using namespace gpucast;

namespace {
std::string traces() { return (test::source_dir() / "tests" / "data" / "traces").string() + "/"; }

trace::TraceImport import(const std::string& file, const hw::GpuSpec& source) {
  auto t = trace::read_kineto_trace(traces() + file);
  return trace::import_trace(t, trace::select_step(t, ""), source, file);
}

wl::TracedOp memory_kernel(double us) {
  wl::TracedOp op;
  op.measured_us = us;
  op.bound = wl::TracedBound::memory;
  op.source_dram_gbps = 1000;  // the built GPU's
  return op;
}
}  // namespace

SCENARIO("a host-bound step leaves the GPU idle for the hand-computed time") {
  // Three 10 us kernels, each issued 50 us after the previous one (host delays 50, 50, 50), and a
  // 50 us host tail. On the built GPU (cold launch 2 us, first touch 0.001 us) each kernel runs
  // [issue, issue + 2 + 10]: GPU busy 36.001 us of a 200 us step.
  const auto gpu = test::gpu_builder{}.build();
  const auto imp = import("host_bound.json", gpu);
  REQUIRE(imp.workload.size() == 3);
  for (const auto& k : imp.workload.kernels()) CHECK(*k.host_delay_us == Approx(50.0));
  CHECK(*imp.workload.host_tail_us() == Approx(50.0));
  sim::Simulator sim(gpu);
  const auto p = sim.predict(imp.workload);
  CHECK(p.kernels[0].scheduled.start_us == Approx(50.0));
  CHECK(p.kernels[2].scheduled.end_us == Approx(162.0));
  CHECK(p.total_us == Approx(200.0));
  CHECK(p.gpu_busy_us == Approx(36.001));
  CHECK(p.gpu_idle_us() == Approx(163.999));
  CHECK(imp.measured_step_us == Approx(200.0));

  // A host twice as fast halves every delay: issues at 25, 50, 75; tail 25 -> 100 us.
  const auto fast = sim.predict(imp.workload.with_host_speed(2.0));
  CHECK(fast.kernels[0].scheduled.start_us == Approx(25.0));
  CHECK(fast.total_us == Approx(100.0));
}

SCENARIO("a sync point stalls the host until the GPU has finished the earlier kernels") {
  // A: 100 us, issued at 0, runs [0 + 2.001, 102.001]. B: 10 us of host work, syncing 5 us in:
  // the host waits from 5 to 102.001, then works 5 us more: B issued at 107.001.
  const auto gpu = test::gpu_builder{}.build();
  wl::Kernel a;
  a.name = "a";
  a.op = memory_kernel(100);
  a.host_delay_us = 0.0;
  wl::Kernel b;
  b.name = "b";
  b.op = memory_kernel(1);
  b.host_delay_us = 10.0;
  b.host_sync_at_us = 5.0;
  const auto w = wl::Workload::build("sync", wl::LaunchMode::eager, {a, b});
  sim::Simulator sim(gpu);
  const auto p = sim.predict(w);
  CHECK(p.kernels[0].scheduled.end_us == Approx(102.001));
  CHECK(p.kernels[1].scheduled.issue_us == Approx(107.001));
  CHECK(p.host_sync_wait_us == Approx(97.001));
}

SCENARIO("scaled kernels follow their bound class onto another GPU") {
  const auto source = test::gpu_builder{}.build();
  const auto faster_dram = test::gpu_builder{}.bandwidth_gbps(2000).build();
  const auto faster_tensor = test::gpu_builder{}.tensor_tflops("bf16", 800).build();
  const auto more_sms = test::gpu_builder{}.sms(200).clock_mhz(2000).build();
  wl::TracedOp op;
  op.measured_us = 100;
  op.bound = wl::TracedBound::memory;
  sim::set_traced_source(op, source);
  CHECK(sim::traced_duration_us(op, source) == Approx(100));
  CHECK(sim::traced_duration_us(op, faster_dram) == Approx(50));  // bandwidth ratio
  CHECK(sim::traced_duration_us(op, faster_tensor) == Approx(100));
  op.bound = wl::TracedBound::compute;
  op.pipe = wl::TracedPipe::tensor;
  op.dtype = DataType::bf16;
  sim::set_traced_source(op, source);
  CHECK(sim::traced_duration_us(op, faster_tensor) == Approx(50));  // bf16 tensor rate ratio
  CHECK(sim::traced_duration_us(op, faster_dram) == Approx(100));
  op.bound = wl::TracedBound::latency;
  op.blocks = 150;  // two rounds of blocks on 100 SMs, one on 200
  CHECK(sim::traced_duration_us(op, more_sms) == Approx(100 * 0.5 * 0.5));  // clock, then rounds
}

SCENARIO("without shapes every kernel is scaled, classified from its name, grid and time") {
  const auto gpu = test::gpu_builder{}.build();
  const auto imp = import("no_shapes.json", gpu);
  CHECK_FALSE(imp.shapes);
  const auto& ks = imp.workload.kernels();
  REQUIRE(ks.size() == 6);
  const auto& gemm = std::get<wl::TracedOp>(ks[0].op);  // a bf16 GEMM kernel on a full wave
  CHECK(gemm.bound == wl::TracedBound::compute);
  CHECK(gemm.pipe == wl::TracedPipe::tensor);
  CHECK(gemm.dtype == DataType::bf16);
  CHECK(std::get<wl::TracedOp>(ks[1].op).bound == wl::TracedBound::memory);  // layer norm, 8 us
  CHECK(std::holds_alternative<wl::CopyOp>(ks[4].op));                        // the copy keeps its model
  CHECK(imp.recognized_gpu_us == Approx(2.0 + 1.5));                         // copy + memset only
}

SCENARIO("a dumped trace workload reads back and predicts the same") {
  const auto gpu = test::gpu_builder{}.build();
  const auto imp = import("linking.json", gpu);
  const std::string text = wl::write_workload(imp.workload);
  CHECK_THAT(text, Catch::Contains("host_delay_us = ") && Catch::Contains("host_sync_at_us = ") &&
                       Catch::Contains("op = \"traced\"") && Catch::Contains("host_tail_us = "));
  const auto back = wl::read_workload_text(text, "dumped.toml");
  sim::Simulator sim(gpu);
  const auto a = sim.predict(imp.workload);
  const auto b = sim.predict(back);
  CHECK(b.total_us == Approx(a.total_us).epsilon(1e-9));
  CHECK(b.gpu_busy_us == Approx(a.gpu_busy_us).epsilon(1e-9));
}

SCENARIO("a dumped sub-microsecond traced kernel (a 0.7 us memset, a launch floor under 1 us) reads back") {
  // Traces hold kernels shorter than 1 us; a dumped launch-bound one must read back as written.
  wl::TracedOp op;
  op.measured_us = 0.7;
  op.bound = wl::TracedBound::launch;
  op.source_floor_us = 0.7;
  const auto w = wl::Workload::build("short", wl::LaunchMode::eager, {wl::Kernel{"k", wl::Op{op}}}, std::nullopt, "");
  const auto back = wl::read_workload_text(wl::write_workload(w), "dumped.toml");
  const auto& t = std::get<wl::TracedOp>(back.kernels().at(0).op);
  CHECK(t.measured_us == Approx(0.7));
  CHECK(t.source_floor_us == Approx(0.7));
  // Zero is still no launch floor.
  CHECK_THROWS_AS(wl::read_workload_text("[workload]\n[[kernel]]\nop = \"traced\"\nmeasured_us = 0.5\nbound = "
                                         "\"launch\"\nsource_floor_us = 0\n",
                                         "w.toml"),
                  InputError);
}
