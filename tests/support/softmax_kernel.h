#pragma once
// The one kernel a softmax row op plans (the warp or block softmax), for tests that pin its plan.
#include <catch2/catch.hpp>

#include "models/row_models.h"
#include "support/gpu_builder.h"
#include "support/row_builder.h"

namespace gpucast::test {

inline models::KernelPlan softmax_kernel(wl::Count rows, wl::Count cols, DataType t) {
  const auto options = models::RowOpModel{}.plan(wl::Op{softmax_op(rows, cols, t)}, gpu_builder{}.build());
  REQUIRE(options.size() == 1);
  REQUIRE(options.front().kernels.size() == 1);
  return options.front().kernels.front();
}

}  // namespace gpucast::test
