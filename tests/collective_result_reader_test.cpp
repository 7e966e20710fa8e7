// The probes' collective result files (bench_multi.py, bench_multi_probe.py) as fabric-fit reads
// them: names as gpucast spells them, alternate sizes held out, malformed rows skipped, a file of
// another kind named as such.
#include <catch2/catch.hpp>

#include "calibration/collective_fit.h"
#include "calibration/collective_gpu_fit.h"
#include "support/temp_dir.h"

using namespace gpucast;

SCENARIO("bench_multi.py rows become points, every other size held out") {
  const test::TempDir dir;
  const auto file = dir.write("multi.json", R"({"results": {"collectives": {
    "sendrecv": {"world": 2, "rows": [
      {"bytes": 1024, "batched_avg_us_max_rank": 10},
      {"bytes": 4096, "batched_avg_us_max_rank": 12},
      {"time_us_median": 5},
      {"bytes": 16384, "batched_avg_us_max_rank": 20}]}}}})");
  const auto points = calib::read_bench_multi(file.string());
  REQUIRE(points.size() == 3);  // the row without a size is skipped
  CHECK(points[0].collective == "send");
  CHECK(points[0].ranks == 2);
  CHECK(points[2].time_us == 20);
  CHECK(points[0].fit);
  CHECK_FALSE(points[1].fit);
  CHECK(points[2].fit);
}

SCENARIO("a probe's graph times: the slowest rank of each replay, the fastest replay") {
  const test::TempDir dir;
  const auto file = dir.write("probe.json", R"({"results": {"collectives": {
    "all_reduce": {"world": 2, "rows": [
      {"bytes": 512, "per_rank": [{"graph_avg_us": [9, 9]}, {"graph_avg_us": [9, 9]}]},
      {"bytes": 2048, "per_rank": [{"graph_avg_us": [10, 8]}, {"graph_avg_us": [7, 11]}]}]}}}})");
  const auto points = calib::read_probe_graph_times(file.string(), 1024);
  REQUIRE(points.size() == 1);  // under min_bytes: left out
  CHECK(points[0].time_us == 10);  // max over ranks per replay: 10, 11; min of those
}

SCENARIO("a result file of another kind is an error naming the script it expected") {
  const test::TempDir dir;
  const auto file = dir.write("other.json", R"({"results": {"gemm": []}})");
  CHECK_THROWS_WITH(calib::read_bench_multi(file.string()),
                    Catch::Contains("results.collectives") && Catch::Contains("bench_multi.py"));
  CHECK_THROWS_WITH(calib::read_probe_graph_times(file.string(), 0), Catch::Contains("bench_multi_probe.py"));
}
