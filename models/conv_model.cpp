#include "models/conv_model.h"

#include <algorithm>
#include <cmath>

#include "models/gemm_model.h"
#include "models/helper_kernels.h"

namespace gpucast::models {
namespace {
// Implicit GEMM's address generation and halo loads cost tensor issue slots a plain GEMM keeps.
constexpr double kImplicitGemmEfficiency = 0.85;
// Tensor-core kernels need channels in multiples of 8 (16 bytes of bf16).
constexpr double kChannelAlignment = 8;
// Winograd F(2x2, 3x3): a 4x4 input tile gives a 2x2 output tile with 16 multiplies per channel
// pair instead of 36. The transforms are additions per tile, small next to C x K multiplies.
constexpr double kWinogradMultiplyReduction = 36.0 / 16.0;
}  // namespace

std::vector<PlanOption> ConvModel::plan(const wl::Op& op, const device::Device& gpu) const {
  const auto& c = std::get<wl::Conv2dOp>(op);
  const double e = bytes_per_element(c.dtype);
  const double n = double(c.n), p = double(c.p()), q = double(c.q());
  const double channels = std::ceil(double(c.c) / kChannelAlignment) * kChannelAlignment;
  const bool padded = channels != double(c.c);
  GemmShape g;
  g.m = n * p * q;
  g.n = double(c.k);
  g.in = c.dtype;
  g.out = c.dtype;
  const bool pointwise = c.r == 1 && c.s == 1 && c.stride == 1 && c.pad == 0;
  if (pointwise) {
    g.k = channels;
  } else {
    g.k = channels * double(c.r) * double(c.s);
    g.a_unique_bytes = n * double(c.h) * double(c.w) * channels * e;
    g.efficiency = kImplicitGemmEfficiency;
    // The K loop steps through taps; each step is a full K tile wide even when a tap has fewer channels.
    const double tk = gemm_k_step(c.dtype);
    const double steps = double(c.r) * double(c.s) * std::ceil(channels / tk);
    g.k_padding_factor = steps * tk / g.k;
  }
  auto options = gemm_options(g, gpu);
  for (auto& option : options) option.name = (pointwise ? "conv as gemm: " : "implicit gemm conv: ") + option.name;
  // cuDNN runs FP32 3x3 stride-1 convolutions as Winograd when that is faster (SIMT path only).
  if (c.dtype == DataType::fp32 && c.r == 3 && c.s == 3 && c.stride == 1) {
    GemmShape w = g;
    w.k_padding_factor /= kWinogradMultiplyReduction;
    for (auto& option : gemm_options(w, gpu)) {
      option.name = "winograd conv: " + option.name;
      options.push_back(std::move(option));
    }
  }
  for (auto& option : options) {
    if (padded) {
      const double in_elems = n * double(c.h) * double(c.w);
      option.kernels.insert(option.kernels.begin(),
                            streaming_kernel("pad channels to " + std::to_string(int(channels)), in_elems * channels,
                                             in_elems * double(c.c) * e, in_elems * channels * e, 12, gpu, 1));
    }
  }
  return options;
}

}  // namespace gpucast::models
