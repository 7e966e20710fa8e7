// The replay validation's floor (workloads/trace/trace_workload.h, TracedKernelRecord::floor_us): a
// profiler never shows an activity shorter than the GPU's least time for its kind, which the
// trace's own shortest kernel, memcpy and memset measure; a group of trace kernels, one floor each;
// a pointwise or row kernel that loads its input waits one memory round trip more than the shortest
// kernel (a store-only fill): a DRAM round trip, or an L2 one when its input is warm there.
#include <catch2/catch.hpp>

#include "calibration/trace_replay.h"
#include "sim/simulator.h"
#include "sim/warm_l2.h"
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
}

SCENARIO("a kernel that loads is floored one memory round trip above the shortest kernel") {
  CHECK_FALSE(sim::input_warm(sim::OpTiming{}));
  // Kernels of the built GPU are far shorter than linking.json's 6 us floor: every re-predicted
  // case sits on its floor. The layer norm and the add_ load, each the output of the kernel before
  // it (4 x 128 x 3072) warm in the L2: an L2 round trip each (the norm, bound by its dependent
  // loads on the built GPU, waits the L2's latency on them). The GEMM is not a pointwise or row
  // kernel, the memset only stores and the copy runs on the copy engine.
  const auto gpu = test::gpu_builder{}.l2_mb(64).build();  // both 3 MB outputs stay in the L2
  const device::Device device(gpu);
  auto t = trace::read_kineto_trace(traces() + "linking.json");
  const auto imp = trace::import_trace(t, trace::select_step(t, ""), gpu, "linking.json");
  sim::Simulator sim(gpu);
  const auto p = sim.predict(imp.workload);
  const auto v = calib::trace_validation(imp, p, device);
  int loads = 0;
  for (size_t i = 0, c = 0; i < imp.records.size(); ++i) {
    if (!imp.records[i].recognized) continue;
    const bool loads_input = sim::input_bytes(imp.workload.kernels()[i].op) > 0;
    const bool warm = sim::input_warm(*p.kernels[i].timing);
    CHECK(warm == loads_input);
    const double wait = !loads_input ? 0.0 : warm ? device.latency().l2_round : device.latency().dram;
    const double floor = imp.records[i].floor_us + wait;
    CHECK(v.cases[c].predicted_us == Approx(std::max(p.kernels[i].timing->exec_us, floor)));
    loads += loads_input;
    ++c;
  }
  CHECK(loads == 2);
}
