// The replay validation's floor (workloads/trace/trace_workload.h, TracedKernelRecord::floor_us): a
// profiler never shows an activity shorter than the GPU's least time for its kind, which the
// trace's own shortest kernel, memcpy and memset measure; a group of trace kernels, one floor each.
#include <catch2/catch.hpp>

#include "calibration/trace_replay.h"
#include "sim/simulator.h"
#include "support/gpu_builder.h"
#include "workloads/trace/trace_workload.h"

using namespace gpucast;

namespace {
std::string traces() {
  return (test::source_dir() / "tests" / "data" / "traces").string() + "/";
}
}  // namespace

SCENARIO("each activity kind is floored at the trace's shortest activity of that kind") {
  // linking.json, step 2: kernels of 30, 8, 6 and 40 us, a 2 us DtoH copy and a 1.5 us memset.
  const auto gpu = test::gpu_builder{}.build();
  auto t = trace::read_kineto_trace(traces() + "linking.json");
  const auto imp = trace::import_trace(t, trace::select_step(t, ""), gpu, "linking.json");
  REQUIRE(imp.records.size() == imp.workload.size());
  int kernels = 0, copies = 0, memsets = 0;
  for (const auto& rec : imp.records) {
    if (rec.kernel_family == "copy") {
      CHECK(rec.floor_us == Approx(2.0));
      ++copies;
    } else if (rec.kernel_family == "memset") {
      CHECK(rec.floor_us == Approx(1.5));
      ++memsets;
    } else {
      CHECK(rec.floor_us == Approx(6.0 * rec.kernels));
      ++kernels;
    }
  }
  CHECK(kernels == 4);
  CHECK(copies == 1);
  CHECK(memsets == 1);

  // The validation compares each measured time with the prediction floored there.
  sim::Simulator sim(gpu);
  const auto p = sim.predict(imp.workload);
  const auto v = calib::trace_validation(imp, p);
  REQUIRE_FALSE(v.cases.empty());
  for (size_t i = 0, c = 0; i < imp.records.size(); ++i) {
    if (!imp.records[i].recognized) continue;
    CHECK(v.cases[c].predicted_us == Approx(std::max(p.kernels[i].timing->exec_us, imp.records[i].floor_us)));
    ++c;
  }
}
