// The sorted embedding backward's segment sums (models/embedding_segments.h): the indices' expected
// segments and partial segments of at most 10 rows, a thread per (segment, feature) in blocks of
// min(stride_warped, 1024), and the dependent rounds each thread waits: the chain, then one per row
// (compute_grad_weight) or per partial (sum_and_scatter), one more when later waves wait their own.
#include <catch2/catch.hpp>

#include <cmath>

#include "models/embedding_segments.h"
#include "sim/op_predictor.h"
#include "support/gpu_builder.h"

using namespace gpucast;

SCENARIO("uniform indices: expected distinct rows and partial segments of at most ten rows") {
  GIVEN("few indices over a large vocabulary: about one row per segment") {
    const auto s = models::expected_segments(4096, 32000);
    CHECK(s.unique == Approx(32000 * (1 - std::exp(-4096.0 / 32000))));
    CHECK(s.partial == Approx(s.unique).epsilon(0.001));
  }
  GIVEN("65,536 indices over 1,000 rows: Poisson(65.5) counts, about seven partial segments each") {
    const auto s = models::expected_segments(65536, 1000);
    CHECK(s.unique == Approx(1000));
    CHECK(s.partial == Approx(7000).epsilon(0.01));
  }
  GIVEN("no indices") {
    CHECK(models::expected_segments(0, 1000).partial == 0);
  }
}

SCENARIO("the segment kernels' blocks: the row padded to whole warps, at most 1,024 threads") {
  const device::Device gpu = test::gpu_builder{}.build();
  const models::EmbeddingSegments s{1000, 1000};
  CHECK(models::compute_grad_weight_kernel(s, 1000, 100, 2, gpu).threads == 128);
  CHECK(models::compute_grad_weight_kernel(s, 1000, 1024, 2, gpu).threads == 1024);
  CHECK(models::compute_grad_weight_kernel(s, 1000, 1025, 2, gpu).threads == 1024);
  // 1,025 features pad to 1,056 per segment: 1,000 x 1,056 threads in blocks of 1,024.
  CHECK(models::compute_grad_weight_kernel(s, 1000, 1025, 2, gpu).blocks == std::ceil(1000 * 1056 / 1024.0));
  CHECK(models::sum_and_scatter_kernel(s, 768, 2, gpu).threads == 768);
}

SCENARIO("a segment thread waits two chained rounds, then one per row or partial it adds") {
  const device::Device gpu = test::gpu_builder{}.sms(132).build();
  GIVEN("one wave (1,000 segments of 100 features: 1,000 blocks of 128 threads fit 132 x 16)") {
    const models::EmbeddingSegments s{1000, 2000};
    CHECK(models::compute_grad_weight_kernel(s, 6000, 100, 2, gpu).dram_rounds == Approx(2 + 3));
    CHECK(models::sum_and_scatter_kernel(s, 100, 2, gpu).dram_rounds == Approx(2 + 2));
  }
  GIVEN("more blocks than fit at once: later waves wait their own first load") {
    const models::EmbeddingSegments s{20000, 20000};
    CHECK(models::compute_grad_weight_kernel(s, 20000, 4096, 2, gpu).dram_rounds == Approx(2 + 1 + 1));
  }
}

SCENARIO("the sorted path zeroes the weight gradient after the radix sort and overlaps host and GPU") {
  const sim::OpPredictor p(test::gpu_builder{}.build());
  wl::EmbeddingOp e;
  e.vocab = 32000;
  e.dim = 4096;
  e.tokens = 4096;
  e.dtype = DataType::bf16;
  e.backward = true;
  const auto t = p.rank_options(e).front();
  REQUIRE(t.kernels.size() == 31);
  CHECK(t.kernels[21].name == "fill (zero the weight gradient)");
  int passes = 0;
  for (const auto& k : t.kernels) passes += k.name == "radix sort one-sweep pass";
  CHECK(passes == 8);
  CHECK(t.kernels[29].name == "compute_grad_weight");
  CHECK(t.kernels[30].name == "sum_and_scatter");
}
