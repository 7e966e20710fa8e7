// nn.Linear under autocast in the training step (workloads/training_step.cpp): autocast's
// cached_cast of (input, weight) is evaluated right to left (GCC's argument order), so the weight's
// cast comes first; MmBackward0 runs the weight gradient before the input gradient, then the input
// gradient's cast back to fp32 and the weight gradient's (the launch order of
// validation/runs/h100-sxm/trace-llama*-train.json.gz).
#include <catch2/catch.hpp>

#include "support/train_step.h"

using namespace gpucast;

SCENARIO("amp's linear: the weight's cast first; backward: wgrad, dgrad, then their casts") {
  const auto w =
      wl::generate_training_step(test::tiny_llama(), test::train_step_options(wl::Precision::amp)).workload;
  CHECK(test::position_of(w, "l0.q_proj.cast_w") + 1 == test::position_of(w, "l0.q_proj.cast_in"));
  CHECK(test::position_of(w, "l0.q_proj.cast_in") + 1 == test::position_of(w, "l0.q_proj"));
  const size_t wgrad = test::position_of(w, "l0.bwd.gate_proj.wgrad");
  CHECK(test::position_of(w, "l0.bwd.gate_proj.dgrad") == wgrad + 1);
  CHECK(test::position_of(w, "l0.bwd.gate_proj.dgrad_to_input") == wgrad + 2);
  CHECK(test::position_of(w, "l0.bwd.gate_proj.wgrad_to_fp32") == wgrad + 3);
}
