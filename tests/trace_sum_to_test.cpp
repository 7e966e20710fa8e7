// Autograd's sum_to (workloads/trace/autograd_sum_to.h): the engine reduces a node's gradient after
// the node computed all of them, so the sum reads the node's full-size gradient, which need not be
// the kernel just before it. The importer says which kernel back on the stream wrote it.
#include <catch2/catch.hpp>

#include "support/gpu_builder.h"
#include "support/temp_dir.h"
#include "workloads/trace/trace_workload.h"
#include "workloads/workload_file.h"

using namespace gpucast;

namespace {
wl::Workload sum_to_workload() {
  auto t =
      trace::read_kineto_trace((test::source_dir() / "tests" / "data" / "traces" / "sum_to.json").string());
  const auto imp = trace::import_trace(t, trace::select_step(t, ""), test::gpu_builder{}.build(), "sum_to");
  REQUIRE(imp.workload.kernels().size() == 8);
  return imp.workload;
}
std::vector<wl::Kernel> sum_to_kernels() {
  return sum_to_workload().kernels();
}
}  // namespace

SCENARIO("a sum_to after the full-size gradient and a broadcast one reads two kernels back") {
  const auto ks = sum_to_kernels();
  CHECK(ks[0].input_from_back == 0);  // the muls: not reductions
  CHECK(ks[1].input_from_back == 0);
  CHECK(ks[2].input_from_back == 2);
}

SCENARIO("a sum_to right after the full-size gradient reads the previous kernel") {
  CHECK(sum_to_kernels()[5].input_from_back == 1);
}

SCENARIO("a sum outside a backward node keeps the L2 rule's own guess") {
  CHECK(sum_to_kernels()[7].input_from_back == 0);
}

SCENARIO("a dumped workload keeps input_from_back, and a bad one names the key") {
  const wl::Workload w = wl::read_workload_text(wl::write_workload(sum_to_workload()), "dump.toml");
  CHECK(w.kernels()[2].input_from_back == 2);
  const std::string bad =
      "[workload]\n[[kernel]]\nop = \"elementwise\"\nelements = 10\ninput_from_back = 0\n";
  CHECK_THROWS_WITH(wl::read_workload_text(bad, "bad.toml"),
                    Catch::Contains("bad.toml:5") && Catch::Contains("input_from_back"));
}
