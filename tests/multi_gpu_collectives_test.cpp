// The collective model against hand computation: nccl-tests bus factors, ring steps and bytes on
// the wire, the latency and bandwidth terms, NVLS and tree choices, crossing nodes, errors.
#include <catch2/catch.hpp>

#include "models/collective_model.h"
#include "support/system_builder.h"

using namespace gpucast;
using models::bus_factor;
using models::estimate_collective;
using wl::CollectiveKind;

SCENARIO("nccl-tests bus factors: busbw = algbw x factor") {
  CHECK(bus_factor(CollectiveKind::all_reduce, 8) == Approx(2.0 * 7 / 8));
  CHECK(bus_factor(CollectiveKind::all_reduce, 2) == Approx(1.0));
  CHECK(bus_factor(CollectiveKind::all_gather, 8) == Approx(7.0 / 8));
  CHECK(bus_factor(CollectiveKind::reduce_scatter, 4) == Approx(3.0 / 4));
  CHECK(bus_factor(CollectiveKind::all_to_all, 8) == Approx(7.0 / 8));
  CHECK(bus_factor(CollectiveKind::broadcast, 8) == Approx(1.0));
  CHECK(bus_factor(CollectiveKind::send, 2) == Approx(1.0));
}

SCENARIO("ring all-reduce moves 2(n-1)/n of the buffer per GPU in 2(n-1) steps") {
  const auto sys = test::system_builder(8);
  const double bytes = 800e6;
  const auto e = estimate_collective(test::collective_op(CollectiveKind::all_reduce, bytes, 8), sys);
  CHECK(e.algorithm == "ring");
  CHECK(e.wire_bytes == Approx(bytes * 2 * 7 / 8));
  CHECK(e.steps == 14);
  // max(10 us fixed, 14 steps x 1 us + 1.4e9 B / (100 GB/s x 0.8))
  const double expected = 14 + 1.4e9 / (80e3);
  CHECK(e.time_us == Approx(expected).epsilon(1e-6));
  CHECK(e.busbw_gbps == Approx(bytes / (expected * 1e3) * 1.75).epsilon(1e-6));
}

SCENARIO("all-gather and reduce-scatter move (n-1)/n in n-1 steps; broadcast and send the whole buffer") {
  const auto sys = test::system_builder(4);
  const double bytes = 400e6;
  const auto ag = estimate_collective(test::collective_op(CollectiveKind::all_gather, bytes, 4), sys);
  CHECK(ag.wire_bytes == Approx(300e6));
  CHECK(ag.time_us == Approx(3 + 300e6 / 80e3).epsilon(1e-6));
  const auto rs = estimate_collective(test::collective_op(CollectiveKind::reduce_scatter, bytes, 4), sys);
  CHECK(rs.time_us == Approx(ag.time_us));
  const auto bc = estimate_collective(test::collective_op(CollectiveKind::broadcast, bytes, 4), sys);
  CHECK(bc.wire_bytes == Approx(bytes));
  CHECK(bc.time_us == Approx(3 + 400e6 / 80e3).epsilon(1e-6));
  const auto sr = estimate_collective(test::collective_op(CollectiveKind::send, bytes, 2), sys);
  CHECK(sr.steps == 1);
  CHECK(sr.time_us == Approx(1 + 400e6 / 80e3).epsilon(1e-6));
}

SCENARIO("all-to-all sends (n-1)/n of the buffer to its peers at once") {
  const auto sys = test::system_builder(8);
  const auto e = estimate_collective(test::collective_op(CollectiveKind::all_to_all, 800e6, 8), sys);
  CHECK(e.time_us == Approx(7 + 700e6 / 80e3).epsilon(1e-6));
}

SCENARIO("the efficiency ramp halves the bandwidth at ramp_bytes") {
  auto sys = test::system_builder(2);
  sys.nccl.ramp_bytes = 1e6;
  CHECK(models::ramp_efficiency(1e6, sys.nccl) == Approx(0.5));
  const auto e = estimate_collective(test::collective_op(CollectiveKind::all_reduce, 1e6, 2), sys);
  CHECK(e.transfer_us == Approx(1e6 / (80e3 * 0.5)).epsilon(1e-6));
}

SCENARIO("a collective's own ramp replaces the system's for it alone") {
  auto sys = test::system_builder(2);
  sys.nccl.ramp_bytes = 1;  // no ramp for the others
  sys.nccl.ramp_bytes_for["broadcast"] = 1e6;
  // at S = ramp_bytes the efficiency is one half: the transfer doubles
  const auto bc = estimate_collective(test::collective_op(CollectiveKind::broadcast, 1e6, 2), sys);
  CHECK(bc.transfer_us == Approx(1e6 / (80e3 * 0.5)).epsilon(1e-6));
  const auto ar = estimate_collective(test::collective_op(CollectiveKind::all_reduce, 1e6, 2), sys);
  CHECK(ar.transfer_us == Approx(1e6 / 80e3).epsilon(1e-6));
}

SCENARIO("NVLS runs the all-reduce in the switch only where the fabric has it and it is enabled") {
  auto sys = test::system_builder(8);
  const double bytes = 1e9;
  CHECK(estimate_collective(test::collective_op(CollectiveKind::all_reduce, bytes, 8), sys).algorithm ==
        "ring");
  sys.fabric.nvls = true;
  const auto e = estimate_collective(test::collective_op(CollectiveKind::all_reduce, bytes, 8), sys);
  CHECK(e.algorithm == "nvls");
  CHECK(e.time_us == Approx(2 + 1e9 / (100e3 * 0.6)).epsilon(1e-6));
  // Not for other collectives.
  CHECK(estimate_collective(test::collective_op(CollectiveKind::all_gather, bytes, 8), sys).algorithm ==
        "ring");
}

SCENARIO("crossing nodes: the ring is bounded by the NICs; small all-reduces take the tree") {
  const auto sys = test::system_builder(8, 4, 900);  // 8 x 400 Gb/s = 400 GB/s per node < 900 x 0.8
  const auto big = estimate_collective(test::collective_op(CollectiveKind::all_reduce, 4e9, 32), sys);
  CHECK(big.crosses_network);
  CHECK(big.nodes_spanned == 4);
  CHECK(big.link_gbps == Approx(400));
  const auto small = estimate_collective(test::collective_op(CollectiveKind::all_reduce, 4096, 32), sys);
  CHECK(small.algorithm == "tree");
  // Tree: 2 x log2(4) x 5 us + 2 x 7 x 1 us of latency (the ring: 62 steps x 5 us).
  CHECK(small.latency_us == Approx(20 + 14));
  CHECK(small.time_us == Approx(34 + small.transfer_us));
}

SCENARIO("a data-parallel group at stride 8 puts one rank per node") {
  const auto sys = test::system_builder(8, 2);
  const auto e = estimate_collective(test::collective_op(CollectiveKind::all_reduce, 1e8, 2, 8), sys);
  CHECK(e.crosses_network);
  CHECK(e.nodes_spanned == 2);
}

SCENARIO("a group larger than the system, or crossing nodes without a network, is an error") {
  const auto sys = test::system_builder(8);
  CHECK_THROWS_WITH(estimate_collective(test::collective_op(CollectiveKind::all_reduce, 1e6, 16), sys),
                    Catch::Contains("more GPUs than the system"));
  auto no_net = test::system_builder(4, 2);
  no_net.network.nics_per_node = 0;
  CHECK_THROWS_WITH(estimate_collective(test::collective_op(CollectiveKind::all_reduce, 1e6, 8), no_net),
                    Catch::Contains("no network between nodes"));
}

SCENARIO("a call takes at least its fixed cost: small messages sit on the floor") {
  const auto sys = test::system_builder(8);
  const auto e = estimate_collective(test::collective_op(CollectiveKind::all_reduce, 1024, 8), sys);
  CHECK(e.time_us ==
        Approx(14 + 1024 * 1.75 / 80e3).epsilon(1e-3));  // 14 steps of 1 us exceed the 10 us floor
  const auto two = estimate_collective(test::collective_op(CollectiveKind::all_reduce, 1024, 2), sys);
  CHECK(two.time_us == Approx(10));  // 2 steps + a tiny transfer < 10 us fixed
}
