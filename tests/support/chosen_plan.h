#pragma once
// The name of the first plan option the models give an op on the default built GPU: what a
// mechanism test checks when it pins which kernel a library runs.
#include <stdexcept>
#include <string>
#include <vector>

#include "models/op_model.h"
#include "support/gpu_builder.h"

namespace gpucast::test {

inline std::string plan_name(const wl::Op& op) {
  const device::Device gpu(gpu_builder{}.build());
  return models::plan_op(op, gpu).front().name;
}

// The main (last) kernel of the first option whose name ends in `suffix`, e.g. ": gemm 64x64" for
// one tile of a convolution's candidates; throws (the test fails, naming the suffix) when none does.
inline const models::KernelPlan& option_kernel(const std::vector<models::PlanOption>& options,
                                               const std::string& suffix) {
  for (const auto& o : options)
    if (o.name.size() >= suffix.size() &&
        o.name.compare(o.name.size() - suffix.size(), suffix.size(), suffix) == 0)
      return o.kernels.back();
  throw std::runtime_error("no option ending in '" + suffix + "'");
}

// The first kernel of the option named exactly `name`, by value (callers may pass the options as a
// temporary); throws when no option has that name.
inline models::KernelPlan named_kernel(const std::vector<models::PlanOption>& options,
                                       const std::string& name) {
  for (const auto& o : options)
    if (o.name == name) return o.kernels.front();
  throw std::runtime_error("no option '" + name + "'");
}

// The same as option_kernel for `op` planned on the default built GPU.
inline models::KernelPlan option_kernel(const wl::Op& op, const std::string& suffix) {
  return option_kernel(models::plan_op(op, device::Device(gpu_builder{}.build())), suffix);
}

}  // namespace gpucast::test
