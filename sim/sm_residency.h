#pragma once
// How kernels on different streams share SMs when one holds its SMs for its whole run.
//
// NCCL runs a collective as one block per channel that stays resident until the collective ends
// (the 4x H100's all-reduces, all-gathers and reduce-scatters: 24 blocks of 544 threads). A kernel
// that starts beside it finds those SMs partly taken. Most kernels' blocks still fit beside NCCL's
// and share the SM (the timeline's fractional slowdown). A persistent kernel's blocks do not: one
// block per SM holding most of the shared memory, each walking a fixed share of the tiles
// (KernelPlan::persistent). The blocks that find no free SM start only when others have finished
// their whole share, so the kernel takes ceil(grid / free SMs) times as long.
//
// Evidence (validation/runs/h100x4/dp-train/trace-1b-b2-*.json.gz, the 1B model's DDP and FSDP2
// steps on 4 H100s): cuBLAS's persistent 132-CTA GEMMs ran 1.6-1.9x (up to 3.4x for short ones)
// as long inside an all-reduce or all-gather as outside it, the same kernel and grid; PyTorch's
// elementwise kernels 1.06-1.4x (DRAM and SM sharing).

#include <vector>

#include "sim/kernel_timer.h"

namespace gpucast::sim {

// Two kernels' blocks resident on one SM share its issue slots equally: a collective beside a kernel
// whose blocks sit on its SMs runs at this fraction of its speed (assumption: the 1B model's DDP
// all-reduces on 4 H100s ran 1.4-1.9x their standalone time beside backward's elementwise kernels,
// validation/runs/h100x4/dp-train/trace-1b-b2-ddp.json.gz).
constexpr double kSharedIssueSlowdown = 2.0;

// How much longer a kernel takes when it starts while other kernels hold `held_sm_share` of the
// SMs: `grid_share` is its grid over the device's resident-block slots (KernelTiming::waves).
// 1 for kernels that are not persistent (they share SMs instead) or whose grid fits the free SMs.
[[nodiscard]] double displaced_factor(bool persistent, double grid_share, double held_sm_share);

// An op's execution when it starts while collectives hold `held_sm_share` of the SMs: each of its
// kernels times its displaced_factor (`exec_us` itself where none is displaced).
[[nodiscard]] double displaced_exec_us(const std::vector<KernelTiming>& kernels, double exec_us,
                                       double held_sm_share);

}  // namespace gpucast::sim
