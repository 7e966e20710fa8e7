// Grad recording: a training forward's aten ops each record their autograd node (grad_record), the
// same model's inference forward (no_grad) records none, and the backward and optimizer none.
#include <catch2/catch.hpp>

#include "sim/host_timeline.h"
#include "support/transformer_builder.h"
#include "workloads/training_step.h"

using namespace gpucast;
using HC = wl::HostCategory;

namespace {
using test::tiny_llama;
wl::GenerateOptions options(wl::Mode mode) {
  wl::GenerateOptions g;
  g.mode = mode;
  g.batch = 2;
  g.seq = 128;
  g.precision = wl::Precision::bf16;
  return g;
}
double sum(const wl::Workload& w, HC c, const std::string& part = "") {
  double n = 0;
  for (const auto& k : w.kernels())
    if (k.name.find(part) != std::string::npos) n += k.host[c];
  return n;
}
}  // namespace

SCENARIO("a training forward records one autograd node per aten op; an inference forward none") {
  const auto train = wl::generate_training_step(tiny_llama(), options(wl::Mode::train)).workload;
  const auto infer = wl::generate_training_step(tiny_llama(), options(wl::Mode::prefill)).workload;
  CHECK(sum(infer, HC::grad_record) == 0);
  // Every aten op of the inference forward is recorded in the training forward (which also has
  // the loss's ops).
  CHECK(sum(train, HC::grad_record) >= sum(infer, HC::op_dispatch));
  CHECK(sum(train, HC::grad_record, ".bwd.") == 0);
  CHECK(sum(train, HC::grad_record, "opt.") == 0);
}

SCENARIO("framework.grad_record_us prices each recorded op") {
  hw::HostSpec h;
  h.grad_record_us = 1.5;
  h.model_factor = 2;
  wl::HostWork w;
  w.add(HC::grad_record, 4);
  CHECK(sim::host_cost(h, w)[size_t(HC::grad_record)] == Approx(12));
}
