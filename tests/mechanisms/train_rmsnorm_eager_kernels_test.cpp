// The eager RMSNorm of a Llama-style training step (workloads/training_step.cpp) as PyTorch runs
// it: the multiplies by rstd [rows, 1] and by the weight [cols] broadcast one operand (PyTorch's
// strided elementwise_kernel), RsqrtBackward0 is three small kernels, MeanBackward1 reads only the
// broadcast gradient and PowBackward0's h.pow(1) is a device-to-device copy (the kernel names and
// shapes of validation/runs/h100-sxm/trace-llama*-train.json.gz).
#include <catch2/catch.hpp>

#include "support/train_step.h"

using namespace gpucast;

SCENARIO("an eager RMSNorm broadcasts rstd and the weight and runs its backward as aten ops") {
  const auto c = test::tiny_llama();
  const auto o = test::train_step_options(wl::Precision::amp);
  const auto w = wl::generate_training_step(c, o).workload;
  const double n = double(o.batch) * o.seq * c.d_model;
  GIVEN("the forward's two multiplies") {
    for (const char* name : {"l0.input_norm.mul", "l0.input_norm.weight_mul"}) {
      const auto& e = test::elementwise_named(w, name);
      THEN(std::string(name) + ": one full input, one broadcast, the strided kernel") {
        CHECK(e.inputs == 1);
        CHECK(e.broadcast_inputs == 1);
        CHECK_FALSE(e.contiguous);
        CHECK(double(e.elements) == n);
      }
    }
  }
  GIVEN("the backward") {
    THEN("grad * weight and grad * rstd broadcast; grad * h reads both in full") {
      CHECK(test::elementwise_named(w, "l0.bwd.input_norm.weight_mul_grad_x").broadcast_inputs == 1);
      CHECK(test::elementwise_named(w, "l0.bwd.input_norm.mul_grad_h").broadcast_inputs == 1);
      CHECK(test::elementwise_named(w, "l0.bwd.input_norm.mul_grad_r").inputs == 2);
      CHECK(test::elementwise_named(w, "l0.bwd.input_norm.mul_grad_r").broadcast_inputs == 0);
    }
    THEN("RsqrtBackward0 is three kernels over the rows") {
      CHECK(test::count_kernels(w, "l0.bwd.input_norm.rsqrt_grad") == 3);
      CHECK(double(test::elementwise_named(w, "l0.bwd.input_norm.rsqrt_grad_pow").elements) ==
            double(o.batch) * o.seq);
    }
    THEN("MeanBackward1 writes every element from the broadcast gradient alone") {
      const auto& e = test::elementwise_named(w, "l0.bwd.input_norm.mean_grad");
      CHECK(e.inputs == 0);
      CHECK(e.broadcast_inputs == 1);
      CHECK(double(e.elements) == n);
    }
    THEN("PowBackward0 copies h (fp32) device to device, then scales and multiplies") {
      const auto* copy =
          std::get_if<wl::CopyOp>(&test::kernel_named(w, "l0.bwd.input_norm.pow_grad_copy").op);
      REQUIRE(copy != nullptr);
      CHECK(copy->kind == wl::CopyKind::d2d);
      CHECK(copy->bytes == 4 * n);
      CHECK(test::position_of(w, "l0.bwd.input_norm.pow_grad_copy") + 1 ==
            test::position_of(w, "l0.bwd.input_norm.pow_grad"));
    }
  }
}
