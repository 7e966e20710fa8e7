// PyTorch's zero_() runs vectorized_elementwise_kernel<FillFunctor>, whose threads handle
// elems_per_thread<io_size>() elements: 8, or 16 where the element sizes add up to one byte
// (CUDALoops.cuh). A 16-bit fill writes 2 KB per 128-thread block, so on a fast memory the block
// dispatcher, not DRAM, sets its pace (models/helper_kernels.cpp, models/backward_kernels.cpp).
#include <catch2/catch.hpp>

#include <cmath>

#include "device/device.h"
#include "models/helper_kernels.h"
#include "sim/op_predictor.h"
#include "support/gpu_builder.h"

using namespace gpucast;

namespace {
constexpr double kThreads = 128;

sim::KernelTiming zero_fill(const device::Device& gpu, DataType dtype) {
  const sim::OpPredictor p(gpu);
  wl::EmbeddingOp m;
  m.vocab = 128256;
  m.dim = 4096;
  m.tokens = 1;
  m.dtype = dtype;
  m.backward = true;
  return p.rank_options(m).front().kernels.at(0);
}
}  // namespace

SCENARIO("a vectorized elementwise thread handles 8 elements, 16 where input and output add up to a byte") {
  CHECK(models::vectorized_elements_per_thread(1) == 16);
  CHECK(models::vectorized_elements_per_thread(2) == 8);
  CHECK(models::vectorized_elements_per_thread(12) == 8);
}

SCENARIO("the embedding gradient's zero fill launches a block per 1,024 elements") {
  const device::Device gpu(test::gpu_builder{}.build());
  const double elements = 128256.0 * 4096.0;
  for (DataType t : {DataType::fp16, DataType::fp32}) {
    const auto fill = zero_fill(gpu, t);
    CHECK(fill.name.find("fill") == 0);
    CHECK(fill.blocks == Approx(std::ceil(elements / (8 * kThreads))));
  }
}
