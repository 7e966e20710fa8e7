// reduce_kernel's prologue (models/row_models.cpp, kReducePrologueCycles): once per kernel, before its
// first load, a block reads the ReduceConfig and offset calculators from the kernel's parameters and
// turns its indices into offsets. Every strategy pays it once, not once per block or per wave; the
// semaphore memset before a split row does not.
#include <catch2/catch.hpp>

#include "models/row_models.h"
#include "support/gpu_builder.h"

using namespace gpucast;

namespace {
std::vector<models::KernelPlan> reduce_kernels(wl::Count rows, wl::Count cols, const device::Device& gpu) {
  wl::RowOp r;
  r.kind = wl::RowOpKind::reduce;
  r.dtype = DataType::fp32;
  r.rows = rows;
  r.cols = cols;
  return models::RowOpModel{}.plan(wl::Op{r}, gpu).at(0).kernels;
}
}  // namespace

SCENARIO("every reduce_kernel pays its prologue once; the semaphore memset does not") {
  const device::Device gpu = test::gpu_builder{}.sms(100).build();
  for (const auto& [rows, cols] : {std::pair<wl::Count, wl::Count>{512, 64}, {4, 32768}, {1, 1 << 20}}) {
    const auto kernels = reduce_kernels(rows, cols, gpu);
    REQUIRE_FALSE(kernels.empty());
    for (const auto& k : kernels) {
      const bool memset = k.name == "workspace memset";
      CHECK(k.startup_cycles == Approx(memset ? 0 : 900));
    }
  }
}
