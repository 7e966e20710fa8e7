// Data parallelism in the PyTorch training step (--precision with --dp): DistributedDataParallel's
// buckets and FSDP2's gathers and reduce-scatters, each on its own stream, and the optimizer waiting
// for the last reduction.
#include <catch2/catch.hpp>

#include <algorithm>

#include "common/errors.h"
#include "support/transformer_builder.h"
#include "workloads/ops/collective.h"
#include "workloads/ops/copy.h"
#include "workloads/training_step.h"

using namespace gpucast;

namespace {
wl::GenerateOptions data_parallel(int dp, wl::Zero zero = wl::Zero::none) {
  wl::GenerateOptions g;
  g.mode = wl::Mode::train;
  g.batch = 4 * dp;
  g.seq = 128;
  g.precision = wl::Precision::amp;
  g.parallel.dp = dp;
  g.parallel.zero = zero;
  return g;
}
std::vector<const wl::Kernel*> named(const wl::Workload& w, const std::string& part) {
  std::vector<const wl::Kernel*> out;
  for (const auto& k : w.kernels())
    if (k.name.find(part) != std::string::npos) out.push_back(&k);
  return out;
}
const wl::Kernel& first_optimizer_kernel(const wl::Workload& w) {
  return *std::find_if(w.kernels().begin(), w.kernels().end(),
                       [](const wl::Kernel& k) { return k.name.rfind("opt.", 0) == 0; });
}
}  // namespace

SCENARIO("DDP copies every gradient into its bucket and all-reduces full buckets on stream 1") {
  const auto c = test::tiny_llama();
  const auto g = wl::generate_training_step(c, data_parallel(4));
  const size_t tensors = 1 + 2 * 9 + 1 + 1;  // embedding, 9 per layer, final norm, lm_head
  CHECK(named(g.workload, ".ddp_bucket_copy").size() == tensors);
  const auto reductions = named(g.workload, "ddp.all_reduce");
  REQUIRE(!reductions.empty());
  double bytes = 0;
  for (const auto* k : reductions) {
    CHECK(k->stream == 1);
    CHECK(k->after.size() == 1);  // the copy of the bucket's last gradient
    bytes += std::get<wl::CollectiveOp>(k->op).bytes;
  }
  THEN("every fp32 gradient is reduced once") {
    CHECK(bytes == Approx(4 * g.parameters).epsilon(1e-6));
  }
  THEN("the reducer copies every reduced gradient back, after the last reduction, before the optimizer") {
    const auto copies = named(g.workload, "ddp.copy_bucket_to_grad");
    REQUIRE(copies.size() == tensors);
    CHECK(copies.front()->stream == 0);
    REQUIRE(copies.front()->after.size() == 1);
    CHECK(copies.front()->after[0] == reductions.back()->name);
    double copied = 0;
    for (const auto* k : copies) {
      const auto& op = std::get<wl::CopyOp>(k->op);
      CHECK(op.kind == wl::CopyKind::d2d);
      copied += op.bytes;
    }
    CHECK(copied == Approx(4 * g.parameters).epsilon(1e-6));
    const auto& opt = first_optimizer_kernel(g.workload);
    CHECK(&opt > copies.back());  // launched after the copies, on the same stream
  }
  THEN("the workload is one rank's share of the batch, the items the job's") {
    CHECK(g.world == 4);
    CHECK(g.items == Approx(16.0 * 128));
  }
}

SCENARIO("DDP's first bucket closes at 1 MiB, the others at 25 MiB") {
  auto c = test::tiny_llama();
  c.vocab = 4096;  // lm_head 4096 x 256 fp32 = 4 MiB: the first gradient ready, a bucket of its own
  const auto g = wl::generate_training_step(c, data_parallel(2));
  const auto reductions = named(g.workload, "ddp.all_reduce");
  REQUIRE(reductions.size() >= 2);
  CHECK(std::get<wl::CollectiveOp>(reductions[0]->op).bytes == Approx(4096.0 * 256 * 4));
  THEN("the rest of the tiny model fits one 25 MiB bucket") {
    CHECK(reductions.size() == 2);
  }
}

SCENARIO("FSDP2 gathers each block before its forward and backward and reduce-scatters its gradients") {
  const auto c = test::tiny_llama();
  const auto g = wl::generate_training_step(c, data_parallel(4, wl::Zero::full));
  const auto gathers = named(g.workload, "fsdp_all_gather");
  const auto scatters = named(g.workload, "fsdp_reduce_scatter");
  CHECK(gathers.size() == 3 + 2);  // root and two blocks forward, the two blocks again in backward
  CHECK(scatters.size() == 3);
  CHECK(named(g.workload, "fsdp_copy_out").size() == gathers.size());
  CHECK(named(g.workload, "fsdp_chunk_cat").size() == scatters.size());
  for (const auto* k : gathers) CHECK(k->stream == 2);
  for (const auto* k : scatters) CHECK(k->stream == 3);
  THEN("each copy-out waits for its gather") {
    for (const auto* k : named(g.workload, "fsdp_copy_out")) CHECK(k->after.size() == 1);
  }
  THEN("the optimizer waits for the last reduce-scatter and steps shards") {
    CHECK(first_optimizer_kernel(g.workload).after.at(0) == scatters.back()->name);
    const auto ddp = wl::generate_training_step(c, data_parallel(4));
    CHECK(g.memory.optimizer == Approx(ddp.memory.optimizer / 4));
  }
}

SCENARIO("the PyTorch training step refuses layouts it does not build, naming the flag") {
  const auto c = test::tiny_llama();
  auto tp = data_parallel(1);
  tp.parallel.tp = 2;
  CHECK_THROWS_WITH(wl::generate_training_step(c, tp), Catch::Contains("--dtype"));
  auto zero1 = data_parallel(2, wl::Zero::os);
  CHECK_THROWS_WITH(wl::generate_training_step(c, zero1), Catch::Contains("ZeRO-1"));
  auto uneven = data_parallel(4);
  uneven.batch = 6;
  CHECK_THROWS_WITH(wl::generate_training_step(c, uneven), Catch::Contains("does not split"));
}
