// The replay validation's floor of copies and fills (workloads/trace/trace_workload.cpp,
// activity_floors): the least work of its kind, a copy or fill of at most kFloorTransferBytes (4 KB),
// takes a time that varies from one to the next (the H100 traces' 4-byte memsets: 0.70-2.4 us), so
// its floor is the median of those activities, not the shortest; with none that small, the shortest.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "support/gpu_builder.h"
#include "support/temp_dir.h"
#include "workloads/trace/trace_workload.h"

using namespace gpucast;

namespace {
// One profiler step of memsets (bytes, duration us), each launched by its own aten::zero_.
std::string memset_trace(const std::vector<std::pair<double, double>>& memsets) {
  std::string ev =
      R"J({"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1", "pid": 1, "tid": 1, "ts": 1000000.0, "dur": 900, "args": {"External id": 1}})J";
  double ts = 1000010;
  int id = 2;
  for (const auto& [bytes, dur] : memsets) {
    const std::string sid = std::to_string(id), t = std::to_string(ts);
    ev += R"J(, {"ph": "X", "cat": "cpu_op", "name": "aten::zero_", "pid": 1, "tid": 1, "ts": )J" + t +
          R"J(, "dur": 20, "args": {"External id": )J" + sid +
          R"J(, "Input Dims": [[1]], "Input type": ["float"]}})J";
    ev += R"J(, {"ph": "X", "cat": "cuda_runtime", "name": "cudaMemsetAsync", "pid": 1, "tid": 1, "ts": )J" +
          std::to_string(ts + 5) + R"J(, "dur": 3, "args": {"External id": )J" + sid +
          R"J(, "correlation": )J" + sid + "}}";
    ev += R"J(, {"ph": "X", "cat": "gpu_memset", "name": "Memset (Device)", "pid": 0, "tid": 7, "ts": )J" +
          std::to_string(ts + 10) + R"J(, "dur": )J" + std::to_string(dur) + R"J(, "args": {"External id": )J" + sid +
          R"J(, "device": 0, "stream": 7, "correlation": )J" + sid + R"J(, "bytes": )J" + std::to_string(bytes) + "}}";
    ts += 50;
    ++id;
  }
  return R"J({"schemaVersion": 1, "deviceProperties": [{"id": 0, "name": "NVIDIA H100 80GB HBM3", "numSms": 132}], "traceEvents": [)J" +
         ev + "]}";
}

std::vector<double> memset_floors(const std::vector<std::pair<double, double>>& memsets) {
  test::TempDir dir;
  const auto path = dir.write("memsets.json", memset_trace(memsets));
  auto t = trace::read_kineto_trace(path);
  const auto gpu = test::gpu_builder{}.build();
  const auto imp = trace::import_trace(t, trace::select_step(t, ""), gpu, "memsets.json");
  std::vector<double> floors;
  for (const auto& rec : imp.records)
    if (rec.kernel_family == "memset") floors.push_back(rec.floor_us / rec.kernels);
  return floors;
}
}  // namespace

SCENARIO("a fill's floor is the median time of the trace's fills of at most 4 KB") {
  GIVEN("three 4-byte fills of 0.7, 1.0 and 1.2 us, a 4 KB one of 1.1 us and a 1 MB one of 5 us") {
    const auto floors = memset_floors({{4, 0.7}, {4, 1.0}, {4, 1.2}, {4096, 1.1}, {1 << 20, 5.0}});
    THEN("every fill is floored at the median of the four small ones (1.1 us), not the shortest") {
      REQUIRE(floors.size() == 5);
      for (double f : floors) CHECK(f == Approx(1.1));
    }
  }
  GIVEN("fills of just over 4 KB only (4097 bytes: 2 and 3 us)J") {
    const auto floors = memset_floors({{4097, 2.0}, {4097, 3.0}});
    THEN("none is least work: the floor is the shortest fill") {
      REQUIRE(floors.size() == 2);
      for (double f : floors) CHECK(f == Approx(2.0));
    }
  }
}
