// A warm consumer bound by its dependent loads (sim/warm_l2.h, KernelTiming::l2_input_exec_us):
// when the producer's output is all the consumer reads and it fits in one L2 partition's share of
// the reuse set, every dependent load waits the L2's round trip instead of DRAM's (a row reduction
// of a few vector loads per thread in one wave: the RMSNorm mean of a prefill); beyond it, the
// share's worth of them. A second input the producer did not write, and the loads wait on DRAM.
#include <catch2/catch.hpp>

#include "sim/kernel_timer.h"
#include "sim/op_predictor.h"
#include "sim/warm_l2.h"
#include "support/gpu_builder.h"

using namespace gpucast;

namespace {
// 10 MB of L2, reuse share 0.5: 5 MB reused, 2.5 MB per partition.
hw::GpuSpec l2_gpu() {
  return test::gpu_builder{}.l2_mb(10).set("cache.l2_reuse_fraction", "0.5").build();
}

// A latency-bound plan: one block, 16 dependent DRAM round trips, little traffic.
models::KernelPlan chain() {
  models::KernelPlan k;
  k.blocks = 1;
  k.threads = 128;
  k.dram_bytes = 128 * 16 * 16;
  k.l2_bytes = k.dram_bytes;
  k.bytes_in_flight = 0;  // no queueing: each round trip waits the unloaded latency
  k.dram_rounds = 16;
  return k;
}

// Exec of a warm row reduction (rows x cols fp32) whose producer wrote exactly its input, over
// its cold exec.
double warm_reduce_ratio(long rows, long cols) {
  const device::Device gpu = l2_gpu();
  sim::OpPredictor p(gpu);
  wl::RowOp r;
  r.kind = wl::RowOpKind::reduce;
  r.rows = rows;
  r.cols = cols;
  r.dtype = DataType::fp32;
  wl::ElementwiseOp producer;
  producer.elements = rows * cols;
  producer.dtype = producer.out_dtype = DataType::fp32;
  const auto& cold = p.predict(wl::Op{r});
  const auto warm = sim::warm_l2_timing(wl::Op{r}, cold, wl::Op{producer}, gpu);
  return warm ? warm->exec_us / cold.exec_us : 1.0;
}
}  // namespace

SCENARIO("a kernel whose loads all hit the L2 waits the L2's round trip on each dependent load") {
  const device::Device gpu = l2_gpu();
  const auto t = sim::time_kernel(chain(), gpu);
  // 15 dependent rounds after the fill's, each DRAM's latency cold and the L2's warm.
  const double per_round = gpu.latency().dram - gpu.latency().l2_round;
  REQUIRE(per_round > 0);
  CHECK(t.exec_us - t.l2_input_exec_us == Approx(16 * per_round).epsilon(0.01));
}

SCENARIO(
    "a latency-bound reduction is all warm up to one L2 partition's share of the reuse set, partly beyond") {
  const device::Device gpu = l2_gpu();
  const long share_elements = long(gpu.l2_reuse_bytes() / sim::kL2Partitions / 4);
  // 512 columns, rows filling the share exactly: all its loads hit; one row more: all but that
  // row's worth (no step); half again as many: two thirds of them.
  const long rows = share_elements / 512;
  const double all = warm_reduce_ratio(rows, 512);
  CHECK(all < 0.8);
  CHECK(warm_reduce_ratio(rows + 1, 512) == Approx(all).epsilon(0.01));
  const double over = warm_reduce_ratio(rows * 3 / 2, 512);
  CHECK(over > all + 0.05);
  CHECK(over < 0.95);
}

SCENARIO("a consumer with a second input the producer did not write keeps its DRAM round trips") {
  const device::Device gpu = l2_gpu();
  sim::OpPredictor p(gpu);
  wl::ElementwiseOp producer, consumer;
  producer.elements = consumer.elements = 1000;
  producer.dtype = producer.out_dtype = consumer.dtype = consumer.out_dtype = DataType::fp32;
  consumer.inputs = 2;
  const auto& cold = p.predict(wl::Op{consumer});
  const auto warm = sim::warm_l2_timing(wl::Op{consumer}, cold, wl::Op{producer}, gpu);
  // Only the bandwidth the 4,000 warm bytes save: no L2 round trips for the other input.
  const double bandwidth_saving = 8000 * (1 / gpu.rates().dram - 1 / gpu.rates().l2);
  const double saved = warm ? cold.exec_us - warm->exec_us : 0.0;
  CHECK(saved <= bandwidth_saving + 1e-9);
  CHECK(saved < cold.kernels[0].exec_us - cold.kernels[0].l2_input_exec_us);
}
