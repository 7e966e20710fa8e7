#pragma once
// Helpers for the tests of the generated PyTorch training step (workloads/training_step.h).
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>

#include "support/transformer_builder.h"
#include "workloads/training_step.h"

namespace gpucast::test {

inline wl::GenerateOptions train_step_options(wl::Precision p, int batch = 2, int seq = 128) {
  wl::GenerateOptions g;
  g.mode = wl::Mode::train;
  g.batch = batch;
  g.seq = seq;
  g.precision = p;
  g.optimizer = wl::Optimizer::adamw;
  return g;
}

// Kernels whose name contains `part`.
inline size_t count_kernels(const wl::Workload& w, const std::string& part) {
  return size_t(std::count_if(w.kernels().begin(), w.kernels().end(),
                              [&](const wl::Kernel& k) { return k.name.find(part) != std::string::npos; }));
}

// The kernel named exactly `name` (fails the test when there is none).
inline const wl::Kernel& kernel_named(const wl::Workload& w, const std::string& name) {
  const auto it = std::find_if(w.kernels().begin(), w.kernels().end(),
                               [&](const wl::Kernel& k) { return k.name == name; });
  REQUIRE(it != w.kernels().end());
  return *it;
}

inline const wl::ElementwiseOp& elementwise_named(const wl::Workload& w, const std::string& name) {
  const auto* e = std::get_if<wl::ElementwiseOp>(&kernel_named(w, name).op);
  REQUIRE(e != nullptr);
  return *e;
}

// Index of the kernel named `name` in launch order.
inline size_t position_of(const wl::Workload& w, const std::string& name) {
  const auto it = std::find_if(w.kernels().begin(), w.kernels().end(),
                               [&](const wl::Kernel& k) { return k.name == name; });
  REQUIRE(it != w.kernels().end());
  return size_t(it - w.kernels().begin());
}

}  // namespace gpucast::test
