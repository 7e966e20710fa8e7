// layer_norm_grad_input_kernel(_vectorized) over more rows than fit at once (models/backward_kernels.cpp,
// norm_backward_plan): every later wave's blocks wait their own first load (the kernel's fill pays
// only the first wave's), and only the threads with a vector of the row keep loads in flight.
#include <catch2/catch.hpp>

#include "models/row_models.h"
#include "support/gpu_builder.h"
#include "support/row_builder.h"

using namespace gpucast;

namespace {

models::KernelPlan grad_input(const device::Device& gpu, wl::Count rows, wl::Count cols) {
  const auto r =
      test::row_builder{}.layernorm().rows(rows).cols(cols).dtype(DataType::fp32).backward().build();
  return models::RowOpModel{}.plan(wl::Op{r}, gpu).at(0).kernels.at(0);
}

}  // namespace

SCENARIO("a norm backward's input gradient waits each later wave's first load") {
  const device::Device gpu(test::gpu_builder{}.sms(100).build());
  const auto one_row = grad_input(gpu, 1, 1024);
  const auto resident =
      static_cast<wl::Count>(gpu.sms() * gpu.blocks_per_sm(one_row.resources(), one_row.name));
  GIVEN("as many 1,024-column fp32 rows as fit at once: two vector steps a thread") {
    const auto k = grad_input(gpu, resident, 1024);
    THEN("the two steps' round trips only") {
      CHECK(k.name == "layer_norm_grad_input_kernel_vectorized");
      CHECK(k.dram_rounds == 2);
    }
  }
  GIVEN("one row more") {
    const auto k = grad_input(gpu, resident + 1, 1024);
    THEN("the later wave's first load adds a round trip") {
      CHECK(k.dram_rounds == 2 + 1);
    }
  }
}

SCENARIO("a norm backward row shorter than a vector per thread keeps only its vectors in flight") {
  const device::Device gpu(test::gpu_builder{}.build());
  GIVEN("512 fp32 columns: a 16-byte vector of dY and of X for each of the 128 threads") {
    THEN("128 vectors of each are in flight") {
      CHECK(grad_input(gpu, 1000, 512).bytes_in_flight == 128 * 2 * 16);
    }
  }
  GIVEN("64 fp32 columns: 16 vectors") {
    THEN("16 vectors of each are in flight, one per loading thread") {
      CHECK(grad_input(gpu, 1000, 64).bytes_in_flight == 16 * 2 * 16);
    }
  }
}
