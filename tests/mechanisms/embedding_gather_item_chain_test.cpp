// The generic gather (_scatter_gather_elementwise_kernel<128, 8>, models/memory_op_models.cpp) runs
// a thread's eight items one after another: each its index (an L2 hit), then the table element it
// names, from DRAM unless the L2 holds the table; one item's element in flight per thread, and a
// grid past one wave pays one more round for its later waves' first loads.
#include <catch2/catch.hpp>

#include "models/memory_op_models.h"
#include "support/gpu_builder.h"

using namespace gpucast;

namespace {
models::KernelPlan gather(wl::Count vocab, wl::Count tokens, const device::Device& gpu) {
  wl::EmbeddingOp m;
  m.vocab = vocab;
  m.dim = 100;  // 200-byte fp16 rows: not a multiple of 16 bytes, the generic gather
  m.tokens = tokens;
  m.dtype = DataType::fp16;
  return models::EmbeddingModel{}.plan(wl::Op{m}, gpu).at(0).kernels.at(0);
}
}  // namespace

SCENARIO("the generic gather's items wait their index, then their table element, one after another") {
  const device::Device gpu = test::gpu_builder{}.sms(132).l2_mb(50).build();
  GIVEN("a table the L2 holds (1,000 x 100 fp16, 200 KB), one wave (98 blocks)") {
    const auto k = gather(1000, 1000, gpu);
    REQUIRE(k.name.rfind("_scatter_gather_elementwise_kernel", 0) == 0);
    CHECK(k.dram_rounds == 1);
    CHECK(k.l2_rounds == 16);
    CHECK(k.bytes_in_flight == Approx(128 * 2));
  }
  GIVEN("a table past the L2 (1,000,000 x 100 fp16, 200 MB)") {
    CHECK(gather(1000000, 1000, gpu).dram_rounds == 8);
    CHECK(gather(1000000, 1000, gpu).l2_rounds == 8);
    // 65,536 tokens: 6,400 blocks of 128 threads, more than the 132 SMs hold at once.
    CHECK(gather(1000000, 65536, gpu).dram_rounds == 9);
  }
}
