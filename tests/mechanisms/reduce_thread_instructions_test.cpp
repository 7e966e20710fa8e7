// reduce_kernel's instructions per thread (models/row_models.cpp, kReduceInstructionsPerThread): every
// thread issues 190 instructions beyond its per-element work (index arithmetic, loop bounds, the warp's
// shuffle reduction, the output), counted by Nsight Compute on the H100. A sum over many short rows is
// bound by issuing them: its time follows its blocks, not its bytes.
#include <catch2/catch.hpp>

#include "models/row_models.h"
#include "sim/kernel_timer.h"
#include "support/gpu_builder.h"
#include "support/row_builder.h"

using namespace gpucast;

namespace {
models::KernelPlan sum_kernel(wl::Count rows, wl::Count cols, DataType t, const device::Device& gpu) {
  const wl::RowOp r = test::row_builder{}.kind(wl::RowOpKind::reduce).rows(rows).cols(cols).dtype(t).build();
  return models::RowOpModel{}.plan(wl::Op{r}, gpu).at(0).kernels.at(0);
}
}  // namespace

SCENARIO("each reduce_kernel thread issues 190 instructions beside 3 per fp32 element it folds") {
  const device::Device gpu = test::gpu_builder{}.build();
  // 512 rows of 64 fp32: blocks of 32 x 16 threads, 16 rows each, 1,024 elements a block.
  const models::KernelPlan k = sum_kernel(512, 64, DataType::fp32, gpu);
  REQUIRE(k.threads == 512);
  CHECK(k.simt_instructions == Approx(512 * 190 + 3 * 1024));
}

SCENARIO("a many-row bf16 sum of short rows is bound by issuing its instructions, not by its bytes") {
  const device::Device gpu = test::gpu_builder{}.build();
  const sim::KernelTiming t = sim::time_kernel(sum_kernel(524288, 40, DataType::bf16, gpu), gpu);
  CHECK(t.bound() == sim::Bound::compute);
  CHECK(t.compute_us > 10 * t.memory_us);
}
