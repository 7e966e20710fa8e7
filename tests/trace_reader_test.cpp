// Reading Kineto traces: what is kept, plain and gzip alike, and every bad-input case named.
#include <catch2/catch.hpp>

#include "common/errors.h"
#include "support/temp_dir.h"
#include "workloads/trace/kineto_trace.h"
#include "workloads/trace/trace_links.h"

using namespace gpucast;

namespace {
std::string traces() { return (test::source_dir() / "tests" / "data" / "traces").string() + "/"; }

std::string error_of(const std::string& file) {
  try {
    (void)trace::read_kineto_trace(traces() + file);
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}
}  // namespace

SCENARIO("a Kineto trace's kernels, runtime calls, CPU ops, flows and steps are read") {
  const auto t = trace::read_kineto_trace(traces() + "linking.json");
  REQUIRE(t.devices.size() == 1);
  CHECK(t.devices[0].name == "NVIDIA H100 80GB HBM3");
  CHECK(t.devices[0].sm_count == 132);
  CHECK(t.steps.size() == 2);
  CHECK(t.steps[1].step == 2);
  CHECK(t.gpu.size() == 12);  // 4 kernels, a memcpy and a memset per step
  CHECK(t.flows == 16);       // an ac2g start and finish per kernel
  const auto& gemm = t.gpu[0];
  CHECK(gemm.kind == trace::GpuActivityKind::kernel);
  CHECK(gemm.stream == 7);
  CHECK(gemm.grid[0] == 132);
  CHECK(gemm.dur_us == 30.0);
  bool addmm = false;
  for (const auto& op : t.cpu_ops)
    if (op.name == "aten::addmm") {
      addmm = true;
      REQUIRE(op.inputs.size() == 5);
      CHECK(op.inputs[1].shapes.front() == std::vector<std::int64_t>{512, 768});
      CHECK(op.inputs[1].type == "c10::BFloat16");
      CHECK(op.inputs[3].concrete == "1");
    }
  CHECK(addmm);
}

SCENARIO("a gzip-compressed trace reads the same as the plain one") {
  const auto plain = trace::read_kineto_trace(traces() + "linking.json");
  const auto packed = trace::read_kineto_trace(traces() + "linking.json.gz");
  CHECK(packed.gpu.size() == plain.gpu.size());
  CHECK(packed.cpu_ops.size() == plain.cpu_ops.size());
  CHECK(packed.runtime.size() == plain.runtime.size());
}

SCENARIO("bad traces are refused with the file and what is wrong") {
  CHECK_THAT(error_of("bad_not_json.json"), Catch::Contains("bad_not_json.json") && Catch::Contains("not JSON"));
  CHECK_THAT(error_of("bad_not_kineto.json"), Catch::Contains("not a Kineto trace") && Catch::Contains("traceEvents"));
  CHECK_THAT(error_of("bad_no_kernels.json"),
             Catch::Contains("no GPU kernels") && Catch::Contains("ProfilerActivity.CUDA"));
  CHECK_THAT(error_of("bad_truncated.json.gz"), Catch::Contains("truncated gzip"));
  CHECK_THAT(error_of("does_not_exist.json"), Catch::Contains("no such trace file"));
}

SCENARIO("a step that does not exist is refused with the steps the trace holds") {
  const auto t = trace::read_kineto_trace(traces() + "linking.json");
  try {
    (void)trace::select_step(t, "99");
    FAIL("no error");
  } catch (const InputError& e) {
    CHECK_THAT(std::string(e.what()), Catch::Contains("step 99 does not exist") && Catch::Contains("1, 2"));
  }
  CHECK_THROWS_AS(trace::select_step(t, "two"), InputError);
  CHECK(trace::select_step(t, "").label == "ProfilerStep#2");  // the last complete step
  CHECK(trace::select_step(t, "1").label == "ProfilerStep#1");
  CHECK(trace::select_step(t, "all").steps.size() == 2);
}
