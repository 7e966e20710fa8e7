// How PyTorch's embedding forward gathers rows (models/memory_op_models.cpp): up to 16 indices a
// thread walks them in turn (indexSelectSmallIndex), one DRAM round per row after the index line's
// first load, and a row of a table larger than the L2 first walks the page table (first_touch_us);
// past 16 indices rows that are a multiple of 16 bytes take the vectorized gather, any other width
// the generic strided gather over three operands.
#include <catch2/catch.hpp>

#include "models/memory_op_models.h"
#include "support/gpu_builder.h"

using namespace gpucast;

namespace {
wl::EmbeddingOp lookup(wl::Count vocab, wl::Count dim, wl::Count tokens, DataType dtype = DataType::bf16) {
  wl::EmbeddingOp m;
  m.vocab = vocab;
  m.dim = dim;
  m.tokens = tokens;
  m.dtype = dtype;
  return m;
}
models::KernelPlan kernel(const wl::EmbeddingOp& m, const device::Device& gpu) {
  return models::EmbeddingModel{}.plan(wl::Op{m}, gpu).at(0).kernels.at(0);
}
}  // namespace

SCENARIO("rows of 16-byte multiples take the vectorized gather, any other width the generic one") {
  const device::Device gpu = test::gpu_builder{}.build();
  CHECK(kernel(lookup(1000, 104, 4096), gpu).name == "vectorized_gather_kernel");  // 208 bytes
  CHECK(kernel(lookup(1000, 100, 4096), gpu).name.rfind("_scatter_gather_elementwise_kernel", 0) == 0);
  CHECK(kernel(lookup(1000, 100, 4096, DataType::fp32), gpu).name ==
        "vectorized_gather_kernel");  // 400 bytes
  // 16 indices or fewer never gather: the small-index kernel takes any width.
  CHECK(kernel(lookup(1000, 100, 16), gpu).name == "indexSelectSmallIndex");
}

SCENARIO(
    "the small-index kernel pays one DRAM round per row, and a page walk per row of a table past the L2") {
  const device::Device gpu = test::gpu_builder{}.l2_mb(50).set("latency.first_touch_us", "0.5").build();
  const double walk = gpu.launch().first_touch_us / gpu.latency().dram;
  REQUIRE(walk > 0);
  GIVEN("a table that fits in the L2 (1000 x 1024 bf16, 2 MB)") {
    CHECK(kernel(lookup(1000, 1024, 16), gpu).dram_rounds == Approx(1 + 16));
    CHECK(kernel(lookup(1000, 1024, 15), gpu).dram_rounds == Approx(1 + 15));
  }
  GIVEN("a table far larger than the L2 (128256 x 4096 bf16, 1 GB)") {
    CHECK(kernel(lookup(128256, 4096, 16), gpu).dram_rounds == Approx(1 + 16 * (1 + walk)));
    CHECK(kernel(lookup(128256, 4096, 1), gpu).dram_rounds == Approx(1 + 1 * (1 + walk)));
  }
}
