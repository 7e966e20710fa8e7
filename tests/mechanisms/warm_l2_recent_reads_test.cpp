// A consumer's input that one of the last few kernels read (sim/warm_l2.h, warm_input): the L2 as an
// LRU-like cache of the reuse share's bytes. The tensor is still there when both ends of the
// consumer's in-order re-read fit: its first line (what the reading kernel moved plus what the
// kernels since moved) and its last (what the kernels since moved plus all the consumer moves).
// Only the previous kernel's output counts as written (its dirty lines stay while it fits); a strided
// consumer may read half of a tensor a kernel read (rotate_half); row ops take no part.
#include <catch2/catch.hpp>

#include "sim/op_predictor.h"
#include "sim/warm_l2.h"
#include "support/gpu_builder.h"
#include "support/row_builder.h"

using namespace gpucast;

namespace {
// 10 MB of L2, reuse share 0.5.
device::Device l2_gpu() {
  return test::gpu_builder{}.l2_mb(10).set("cache.l2_reuse_fraction", "0.5").build();
}
wl::ElementwiseOp pointwise(long elements, bool contiguous = true) {
  wl::ElementwiseOp e;
  e.elements = elements;
  e.dtype = e.out_dtype = DataType::fp32;
  e.contiguous = contiguous;
  return e;
}
}  // namespace

SCENARIO("a tensor a recent kernel read is warm while both ends of the re-read fit the LRU budget") {
  const device::Device gpu = l2_gpu();
  const double budget = gpu.l2_reuse_bytes();
  const wl::Op consumer{pointwise(1000)};  // reads 4,000 bytes, writes 4,000
  const wl::Op reader{pointwise(1000)};
  const wl::Op other{pointwise(7)};  // another tensor in between
  auto warm = [&](double reader_moved, double between_moved, double consumer_moved) {
    return sim::warm_input(consumer, consumer_moved, {{&reader, reader_moved}, {&other, between_moved}}, gpu)
        .read_bytes;
  };
  // First line: the reader's bytes plus those moved since.
  CHECK(warm(budget / 2, budget / 2, 8000) == 4000);
  CHECK(warm(budget / 2, budget / 2 + 1, 8000) == 0);
  // Last line: the bytes moved since plus the consumer's whole footprint (the tensor included).
  CHECK(warm(4000, budget - 12000, 12000) == 4000);
  CHECK(warm(4000, budget - 12000, 12001) == 0);
}

SCENARIO("only the previous kernel's output counts as written; older outputs need a read to be warm") {
  const device::Device gpu = l2_gpu();
  const wl::Op consumer{pointwise(1000)};
  const wl::Op gemm{wl::GemmOp{40, 25, 64, 1, DataType::fp32, DataType::fp32}};  // writes 1,000 elements
  const wl::Op other{pointwise(7)};
  CHECK(sim::warm_input(consumer, 8000, {{&gemm, 20000}}, gpu).read_bytes == 4000);
  CHECK(sim::warm_input(consumer, 8000, {{&gemm, 20000}, {&other, 56}}, gpu).read_bytes == 0);
}

SCENARIO("a strided consumer may read half of a tensor a recent kernel read; a contiguous one may not") {
  const device::Device gpu = l2_gpu();
  const wl::Op reader{pointwise(2000)};  // q * cos reads all of q
  const wl::Op other{pointwise(7)};
  const std::vector<sim::RecentKernel> recent{{&reader, 16000}, {&other, 56}};
  CHECK(sim::warm_input(wl::Op{pointwise(1000, false)}, 8000, recent, gpu).read_bytes == 4000);
  CHECK(sim::warm_input(wl::Op{pointwise(1000, true)}, 8000, recent, gpu).read_bytes == 0);
  CHECK(sim::warm_input(wl::Op{pointwise(999, false)}, 8000, recent, gpu).read_bytes == 0);
}

SCENARIO("a row op reads a warm tensor only from the previous kernel's output") {
  const device::Device gpu = l2_gpu();
  wl::RowOp norm;
  norm.rows = 10;
  norm.cols = 100;
  norm.dtype = DataType::fp32;
  const wl::Op reader{pointwise(1000)};
  const wl::Op other{pointwise(7)};
  CHECK(sim::warm_input(wl::Op{norm}, 8000, {{&reader, 8000}, {&other, 56}}, gpu).read_bytes == 0);
  CHECK(sim::warm_input(wl::Op{norm}, 8000, {{&reader, 8000}}, gpu).read_bytes == 4000);
}

SCENARIO("only the last kRecentKernels kernels count") {
  const device::Device gpu = l2_gpu();
  const wl::Op consumer{pointwise(1000)};
  const wl::Op reader{pointwise(1000)};
  const wl::Op other{pointwise(7)};
  std::vector<sim::RecentKernel> recent{{&reader, 8000}};
  for (int i = 1; i < sim::kRecentKernels; ++i) recent.push_back({&other, 56});
  CHECK(sim::warm_input(consumer, 8000, recent, gpu).read_bytes == 4000);
  recent.push_back({&other, 56});
  CHECK(sim::warm_input(consumer, 8000, recent, gpu).read_bytes == 0);
}

SCENARIO("a warm consumer never runs below its non-memory bound") {
  const device::Device gpu = l2_gpu();
  sim::OpPredictor p(gpu);
  for (long n : {1000L, 100000L, 300000L}) {
    const wl::Op e{pointwise(n)};
    const sim::OpTiming& cold = p.predict(e);
    sim::WarmInput in;
    in.read_bytes = 4.0 * n;
    in.write_bytes = 4.0 * n;
    in.every_input = true;
    const auto warm = sim::warm_l2_timing(e, cold, in, gpu);
    if (!warm) continue;
    CHECK(warm->kernels.at(0).exec_us >= cold.kernels.at(0).non_memory_exec_us - 1e-9);
    CHECK(warm->kernels.at(0).exec_us <= cold.kernels.at(0).exec_us);
  }
}

SCENARIO("a named producer further back keeps what the lines allocated since left of one partition's share") {
  // input_from_back (wl::Kernel): the sum reads what the kernel two back wrote. 10 MB of L2, reuse
  // share 0.5: 2.5 MB per partition; the sum reads 4,000 bytes and stores 40.
  const device::Device gpu = l2_gpu();
  const double share = gpu.l2_reuse_bytes() / sim::kL2Partitions;
  const wl::Op consumer{test::row_builder{}.reduce().rows(10).cols(100).dtype(DataType::fp32).build()};
  const wl::Op producer{pointwise(1000)};  // writes the 4,000 bytes the sum reads
  const wl::Op other{pointwise(1000)};     // a tensor of the same size in between
  auto warm = [&](double between_moved, int back) {
    return sim::warm_input(consumer, 4000, {{&producer, 8000}, {&other, between_moved}}, gpu, back);
  };
  CHECK(warm(share - 40 - 4000, 2).hit_share == Approx(1.0));
  CHECK(warm(share - 40 - 2000, 2).hit_share == Approx(0.5));
  CHECK(warm(share - 40, 2).read_bytes == 0);  // nothing left: cold
  CHECK(warm(8000, 3).read_bytes == 0);        // older than the kernels the rule keeps: cold
  // Named as the kernel just before: the previous kernel's rule (the output fits the share: all of it).
  CHECK(warm(gpu.l2_reuse_bytes(), 1).hit_share == 1);
}
