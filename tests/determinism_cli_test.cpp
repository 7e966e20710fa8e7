// The same command gives the same bytes: run twice, and a sweep on one worker or on many.
#include <catch2/catch.hpp>

#include "support/cli_runner.h"

using gpucast::test::run_gpucast;

SCENARIO("a sweep's output does not depend on its worker count") {
  const std::vector<std::string> base{"sweep", "--gpu", "h100-sxm", "--model", "gpt2", "--vary", "batch=1,2,4,8",
                                      "--vary", "memory.bandwidth_gbps=1000:3000:1000", "--format", "csv"};
  auto with_threads = [&](const char* n) {
    auto args = base;
    args.insert(args.end(), {"--threads", n});
    const auto r = run_gpucast(args);
    REQUIRE(r.exit_code == 0);
    return r.out;
  };
  const auto one = with_threads("1");
  CHECK(one == with_threads("4"));
  CHECK(one == with_threads("1"));
}

SCENARIO("repeated predictions are byte-identical") {
  const std::vector<std::string> args{"predict", "--gpu", "h100-sxm", "--workload",
                                      "workloads/examples/two-streams.toml", "--format", "json"};
  const auto a = run_gpucast(args);
  const auto b = run_gpucast(args);
  REQUIRE(a.exit_code == 0);
  CHECK(a.out == b.out);
}
