#pragma once
// The name of the first plan option the models give an op on the default built GPU: what a
// mechanism test checks when it pins which kernel a library runs.
#include <string>

#include "models/op_model.h"
#include "support/gpu_builder.h"

namespace gpucast::test {

inline std::string plan_name(const wl::Op& op) {
  const device::Device gpu(gpu_builder{}.build());
  return models::plan_op(op, gpu).front().name;
}

}  // namespace gpucast::test
