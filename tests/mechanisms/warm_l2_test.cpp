// Producer -> consumer reuse through the L2 (sim/warm_l2.h): a pointwise kernel right after the
// kernel that wrote its input, on the same stream, reads it from the L2 when it fits in the share
// a reused set keeps and one of its inputs has that output's size; otherwise, or on another stream,
// from DRAM as its standalone prediction says.
#include <catch2/catch.hpp>

#include "sim/simulator.h"
#include "sim/warm_l2.h"
#include "support/gpu_builder.h"
#include "support/row_builder.h"
#include "workloads/workload_file.h"

using namespace gpucast;

namespace {
// 10 MB of L2, reuse share 0.5: a reused set of up to 5 MB stays.
hw::GpuSpec l2_gpu() {
  return test::gpu_builder{}.l2_mb(10).set("cache.l2_reuse_fraction", "0.5").build();
}

std::string two_kernels(long elements, int second_stream) {
  std::string k = "op = \"elementwise\"\nelements = " + std::to_string(elements) + "\ndtype = \"fp32\"\n";
  return "[workload]\n[[kernel]]\nname = \"producer\"\n" + k +
         "[[kernel]]\nname = \"consumer\"\nstream = " + std::to_string(second_stream) + "\n" + k;
}

double consumer_exec(long elements, int stream) {
  sim::Simulator s(l2_gpu());
  const auto p = s.predict(wl::read_workload_text(two_kernels(elements, stream), "w.toml"));
  return p.kernels[1].timing->exec_us / p.kernels[0].timing->exec_us;
}
}  // namespace

SCENARIO(
    "a consumer whose producer's output fits in the L2's reuse share runs faster; one byte over does not") {
  const device::Device gpu = l2_gpu();
  const long fits = long(gpu.l2_reuse_bytes() / 4);  // fp32 elements written by the producer
  CHECK(consumer_exec(fits, 0) < 0.9);
  CHECK(consumer_exec(fits + 1, 0) == Approx(1.0));
}

SCENARIO("the producer must be the previous kernel on the consumer's own stream") {
  const device::Device gpu = l2_gpu();
  const long fits = long(gpu.l2_reuse_bytes() / 4);
  CHECK(consumer_exec(fits, 1) == Approx(1.0));
}

SCENARIO("the hit is the smaller of what the producer wrote and what the consumer reads") {
  // A binary op reads two tensors of 1000 fp32 elements; the producer wrote one of them.
  wl::ElementwiseOp producer, consumer;
  producer.elements = consumer.elements = 1000;
  consumer.inputs = 2;
  producer.dtype = producer.out_dtype = consumer.dtype = consumer.out_dtype = DataType::fp32;
  CHECK(sim::written_bytes(wl::Op{producer}) == 4000);
  CHECK(sim::input_bytes(wl::Op{consumer}) == 8000);
  const device::Device gpu = l2_gpu();
  sim::OpPredictor p(gpu);
  const auto warm = sim::warm_l2_timing(wl::Op{consumer}, p.predict(wl::Op{consumer}), wl::Op{producer}, gpu);
  REQUIRE(warm);
  // 4000 bytes read from the L2 and its 4000-byte output kept there (one partition's share is 2.5 MB).
  CHECK(p.predict(wl::Op{consumer}).dram_bytes - warm->dram_bytes == Approx(4000 + 4000));
}

SCENARIO("a warm consumer's output stays in the L2 when it fits in one partition's share of the reuse set") {
  // 10 MB of L2, reuse share 0.5: 5 MB reused, 2.5 MB per partition. A pointwise op reads the
  // producer's fp32 output (warm) and writes an fp32 output of its size.
  const device::Device gpu = l2_gpu();
  sim::OpPredictor p(gpu);
  const double share = gpu.l2_reuse_bytes() / sim::kL2Partitions;
  auto saved = [&](long elements) {
    wl::ElementwiseOp e;
    e.elements = elements;
    e.dtype = e.out_dtype = DataType::fp32;
    const auto warm = sim::warm_l2_timing(wl::Op{e}, p.predict(wl::Op{e}), wl::Op{e}, gpu);
    REQUIRE(warm);
    return p.predict(wl::Op{e}).dram_bytes - warm->dram_bytes;
  };
  const long fits = long(share / 4);
  CHECK(saved(fits) == Approx(8.0 * fits));            // input and output
  CHECK(saved(fits + 1) == Approx(4.0 * (fits + 1)));  // the input only
}

SCENARIO("a consumer reads the producer's output only when one of its inputs has that output's size") {
  // A weight cast (589,824 elements) right after a matmul writing 8192 x 768: another tensor.
  const device::Device gpu = l2_gpu();
  sim::OpPredictor p(gpu);
  wl::ElementwiseOp producer, consumer;
  producer.dtype = producer.out_dtype = consumer.dtype = consumer.out_dtype = DataType::fp32;
  producer.elements = 1000;
  consumer.elements = 1000;
  CHECK(sim::warm_l2_timing(wl::Op{consumer}, p.predict(wl::Op{consumer}), wl::Op{producer}, gpu));
  consumer.elements = 1001;
  CHECK_FALSE(sim::warm_l2_timing(wl::Op{consumer}, p.predict(wl::Op{consumer}), wl::Op{producer}, gpu));
  consumer.elements = 999;
  CHECK_FALSE(sim::warm_l2_timing(wl::Op{consumer}, p.predict(wl::Op{consumer}), wl::Op{producer}, gpu));
  // A GEMM's output (m x n) read by a pointwise op of m x n elements is the same tensor.
  const wl::Op gemm{wl::GemmOp{40, 25, 64, 1, DataType::fp32, DataType::fp32}};
  consumer.elements = 1000;
  CHECK(sim::output_elements(gemm) == 1000);
  CHECK(sim::warm_l2_timing(wl::Op{consumer}, p.predict(wl::Op{consumer}), gemm, gpu));
}

SCENARIO("GEMMs are never warm consumers") {
  const device::Device gpu = l2_gpu();
  sim::OpPredictor p(gpu);
  const wl::Op gemm{wl::GemmOp{256, 256, 256, 1, DataType::bf16, DataType::bf16}};
  wl::ElementwiseOp e;
  e.elements = 1000;
  CHECK_FALSE(sim::warm_l2_timing(gemm, p.predict(gemm), wl::Op{e}, gpu));
}

SCENARIO(
    "an output larger than one partition's share is found in the L2 for that share, less the consumer's "
    "stores") {
  // 5 MB reused, 2.5 MB per partition: a 4 MB producer output leaves 2.5 MB, less the row sum's
  // 4 KB of stores, for an in-order consumer; none for a pointwise one that writes 4 MB.
  const device::Device gpu = l2_gpu();
  const double share = gpu.l2_reuse_bytes() / sim::kL2Partitions;
  wl::ElementwiseOp producer;
  producer.elements = 1000000;
  producer.dtype = producer.out_dtype = DataType::fp32;
  const wl::Op sum{test::row_builder{}.reduce().rows(1000).cols(1000).dtype(DataType::fp32).build()};
  const wl::Op large{producer};
  const auto row = sim::warm_input(sum, 0, {{&large, 0}}, gpu);
  CHECK(row.every_input);
  CHECK(row.hit_share == Approx((share - 4000) / 4e6));
  CHECK(sim::warm_input(large, 0, {{&large, 0}}, gpu).hit_share == 0);
  // At exactly one partition's share, all of it.
  producer.elements = long(share / 4);
  const wl::Op fits{producer};
  CHECK(sim::warm_input(fits, 0, {{&fits, 0}}, gpu).hit_share == 1);
}

SCENARIO("a warm row sum moves the hit share of the way from its cold time to its all-L2 time") {
  const device::Device gpu = l2_gpu();
  sim::OpPredictor p(gpu);
  const wl::Op op{test::row_builder{}.reduce().rows(2000).cols(1000).dtype(DataType::fp32).build()};
  const auto& cold = p.predict(op);
  sim::WarmInput all;
  all.read_bytes = 8e6;
  all.every_input = true;
  sim::WarmInput half = all;
  half.hit_share = 0.5;
  const auto full_warm = sim::warm_l2_timing(op, cold, all, gpu);
  const auto half_warm = sim::warm_l2_timing(op, cold, half, gpu);
  REQUIRE(full_warm);
  REQUIRE(half_warm);
  CHECK(half_warm->exec_us == Approx((cold.exec_us + full_warm->exec_us) / 2));
}

SCENARIO("two warm consumers of one op that find different shares in the L2 are timed apart") {
  // 10 MB of L2, reuse share 0.5: 2.5 MB per partition. Both sums read a 4 MB fp32 output; the first
  // right after it (0.62 of it left), the second two kernels after it, a 2 MB copy between (0.12).
  const std::string producer = "op = \"elementwise\"\nelements = 1000000\ndtype = \"fp32\"\n";
  const std::string sum = "op = \"reduce\"\nrows = 1000\ncols = 1000\ndtype = \"fp32\"\n";
  const std::string text = "[workload]\n[[kernel]]\n" + producer + "[[kernel]]\nname = \"near\"\n" + sum +
                           "[[kernel]]\n" + producer +
                           "[[kernel]]\nop = \"elementwise\"\nelements = 250000\ndtype = \"fp32\"\n" +
                           "[[kernel]]\nname = \"far\"\ninput_from_back = 2\n" + sum;
  sim::Simulator s(l2_gpu());
  const auto p = s.predict(wl::read_workload_text(text, "w.toml"));
  CHECK(p.kernels[4].timing->exec_us > p.kernels[1].timing->exec_us * 1.05);
}
