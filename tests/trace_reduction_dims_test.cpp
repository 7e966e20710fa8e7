// Reductions from a trace (workloads/trace/op_recognition.h): the dims a sum/mean reduces (its
// recorded Concrete Inputs) decide the row op: trailing dims are rows of their product's length;
// a reduction over a leading dim (a column reduction) is no row op, so it is scaled, not re-predicted;
// nor is one over trailing dims that are not contiguous in memory (a channels-last mean over H and W).
#include <catch2/catch.hpp>

#include "support/gpu_builder.h"
#include "workloads/trace/trace_workload.h"

using namespace gpucast;

namespace {
// tests/data/traces/reductions.json: sum over [-1], [-2, -1] and [0, 1], and a channels-last mean.
trace::TraceImport import_reductions() {
  const auto gpu = test::gpu_builder{}.build();
  auto t = trace::read_kineto_trace(
      (test::source_dir() / "tests" / "data" / "traces" / "reductions.json").string());
  return trace::import_trace(t, trace::select_step(t, ""), gpu, "reductions.json");
}
}  // namespace

SCENARIO("a sum over trailing dims is a row reduction; one over leading dims is left to scaling") {
  const auto imp = import_reductions();
  REQUIRE(imp.workload.size() == 4);
  const auto& k = imp.workload.kernels();
  // sum(x, [-1]) of [8, 1024, 768]: 8192 rows of 768.
  const auto* last = std::get_if<wl::RowOp>(&k[0].op);
  REQUIRE(last);
  CHECK(last->rows == 8192);
  CHECK(last->cols == 768);
  // sum(x, [-2, -1]): 8 rows of 1024 x 768.
  const auto* trailing = std::get_if<wl::RowOp>(&k[1].op);
  REQUIRE(trailing);
  CHECK(trailing->rows == 8);
  CHECK(trailing->cols == 1024 * 768);
  // sum(x, [0, 1]): over the leading dims.
  CHECK(std::holds_alternative<wl::TracedOp>(k[2].op));
  CHECK_FALSE(imp.records[2].recognized);
}

SCENARIO("a mean over the trailing dims of a channels-last tensor is left to scaling") {
  const auto imp = import_reductions();
  REQUIRE(imp.workload.size() == 4);
  // mean(x, [-1, -2]) of [64, 2048, 7, 7] with strides [100352, 1, 14336, 2048]: the reduced dims
  // stride by the channel count; ATen vectorizes along the output (reduce_kernel<128, 4>).
  CHECK(std::holds_alternative<wl::TracedOp>(imp.workload.kernels()[3].op));
  CHECK_FALSE(imp.records[3].recognized);
}
