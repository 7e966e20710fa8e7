#pragma once
// Op models turn a workload op into the ways a library may run it on a GPU (tile shapes, split-K,
// kernel variants). The simulator times each option and keeps the fastest, as library heuristics
// (cuBLAS, cuDNN) aim to. One implementation per op family lives beside this interface.
#include <vector>

#include "device/device.h"
#include "models/kernel_plan.h"
#include "workloads/op.h"

namespace gpucast::models {

// Contract: returns at least one option; every kernel has blocks >= 1 and non-negative work.
// Throws UnsupportedError when the GPU cannot run the op (e.g. fp8 without fp8 tensor cores).
class OpModel {
 public:
  virtual ~OpModel() = default;
  [[nodiscard]] virtual std::vector<PlanOption> plan(const wl::Op& op, const device::Device& gpu) const = 0;
};

// Plans `op` with the model for its family.
[[nodiscard]] std::vector<PlanOption> plan_op(const wl::Op& op, const device::Device& gpu);

}  // namespace gpucast::models
