// SM residency (sim/sm_residency.h): a persistent kernel whose one-block-per-SM grid does not fit the
// SMs a collective leaves free runs its displaced blocks' shares after the others'.
#include <catch2/catch.hpp>

#include "sim/sm_residency.h"

using gpucast::sim::displaced_factor;

SCENARIO("a persistent grid takes twice as long once any SM it needs is held") {
  CHECK(displaced_factor(true, 1.0, 0.0) == 1.0);
  CHECK(displaced_factor(true, 1.0, 0.01) == 2.0);
  CHECK(displaced_factor(true, 1.0, 24.0 / 132) == 2.0);  // NCCL's 24 channels on an H100
  THEN("a grid of many waves still holds one block per SM") {
    CHECK(displaced_factor(true, 2.7, 0.18) == 2.0);
  }
}

SCENARIO("a persistent grid that fits the free SMs is not displaced, at the exact boundary") {
  CHECK(displaced_factor(true, 0.8, 0.2) == 1.0);
  CHECK(displaced_factor(true, 0.81, 0.2) == 2.0);
  CHECK(displaced_factor(true, 0.5, 0.5) == 1.0);
}

SCENARIO("kernels that are not persistent share SMs instead: no displacement") {
  CHECK(displaced_factor(false, 1.0, 0.5) == 1.0);
  CHECK(displaced_factor(false, 10.0, 0.18) == 1.0);
}

SCENARIO("nothing held, or a held share of every SM, stays finite") {
  CHECK(displaced_factor(true, 1.0, -1.0) == 1.0);
  CHECK(displaced_factor(true, 1.0, 1.0) == 20.0);  // at most 1 / 0.05
  CHECK(displaced_factor(true, 0.0, 0.5) == 1.0);
}
