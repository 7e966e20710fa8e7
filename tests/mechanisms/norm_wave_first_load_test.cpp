// vectorized_layer_norm_kernel over more rows than fit at once (models/row_models.cpp, norm_plan):
// every later wave's blocks wait their own first load (the kernel's fill pays only the first
// wave's), and only the threads with a vector of the row keep a load in flight.
#include <catch2/catch.hpp>

#include "models/row_models.h"
#include "support/gpu_builder.h"

using namespace gpucast;

namespace {

models::KernelPlan rms_kernel(const device::Device& gpu, wl::Count rows, wl::Count cols) {
  wl::RowOp r;
  r.kind = wl::RowOpKind::rmsnorm;
  r.rows = rows;
  r.cols = cols;
  r.dtype = DataType::fp32;
  return models::RowOpModel{}.plan(wl::Op{r}, gpu).at(0).kernels.at(0);
}

}  // namespace

SCENARIO("a vectorized norm's later waves each wait their first load") {
  const device::Device gpu(test::gpu_builder{}.sms(100).build());
  const auto one_row = rms_kernel(gpu, 1, 5120);
  const auto resident =
      static_cast<wl::Count>(gpu.sms() * gpu.blocks_per_sm(one_row.resources(), one_row.name));
  GIVEN("as many 5,120-column fp32 rows as fit at once: ten vectors a thread, 8 rounds a pass") {
    const auto k = rms_kernel(gpu, resident, 5120);
    THEN("both passes wait DRAM (the weight's first touch), no extra round") {
      CHECK(k.dram_rounds == 16);
      CHECK(k.l2_rounds == 0);
    }
  }
  GIVEN("one row more") {
    const auto k = rms_kernel(gpu, resident + 1, 5120);
    THEN("pass one's rounds and the wave's first load from DRAM, pass two's from the L2") {
      CHECK(k.dram_rounds == 8 + 1);
      CHECK(k.l2_rounds == 8);
    }
  }
}

SCENARIO("a row shorter than a vector per thread keeps only its vectors in flight") {
  const device::Device gpu(test::gpu_builder{}.build());
  GIVEN("512 fp32 columns: a 16-byte vector for each of the 128 threads") {
    THEN("128 vectors are in flight") {
      CHECK(rms_kernel(gpu, 1000, 512).bytes_in_flight == 128 * 16);
    }
  }
  GIVEN("320 fp32 columns: 80 vectors") {
    THEN("80 vectors are in flight, one per loading thread") {
      CHECK(rms_kernel(gpu, 1000, 320).bytes_in_flight == 80 * 16);
    }
  }
}
