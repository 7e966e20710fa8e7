#pragma once
// Fused attention backward as the SDPA backends run it (one ATen backward call): a preprocessing
// kernel (rowsum(dO * O) and the zeroed fp32 dQ accumulator), the main kernel parallel over key/value
// tiles (each block walks the query tiles, recomputes the scores, runs five products per tile and
// adds its share of dQ into the accumulator with atomics), the dQ conversion to the input type, and
// for grouped-query attention the sum of the per-query-head dK and dV over each group.
#include "device/device.h"
#include "models/kernel_plan.h"
#include "workloads/op.h"

namespace gpucast::models {

// `warpgroup`: the backend runs Hopper's warpgroup kernels (cuDNN, FlashAttention-3 on sm90/sm100).
[[nodiscard]] PlanOption attention_backward_plan(const wl::AttentionOp& a, wl::AttentionBackend backend,
                                                 bool warpgroup, const device::Device& gpu);

}  // namespace gpucast::models
