// Unequal blocks handed out in launch order (models/block_dispatch.{h,cpp}): a greedy schedule whose
// length, in waves of the average block, the kernel timer charges; causal attention backward's grid
// (key block fastest, then the head) uses it.
#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include "device/device.h"
#include "models/block_dispatch.h"
#include "models/op_model.h"
#include "sim/kernel_timer.h"
#include "support/gpu_builder.h"

using namespace gpucast;

SCENARIO("equal blocks: one more than the slots takes a second wave") {
  CHECK(models::dispatch_waves(std::vector<double>(4, 1.0), 4) == Approx(1.0));
  CHECK(models::dispatch_waves(std::vector<double>(5, 1.0), 4) == Approx(2.0));
}

SCENARIO("the same blocks end later when the longest one is launched last") {
  // Two slots. Long first: 2 | 1 + 1, ends at 2. Long last: 1 + 2 | 1, ends at 3. Average 4/3.
  CHECK(models::dispatch_waves({2, 1, 1}, 2) == Approx(2 / (4.0 / 3)));
  CHECK(models::dispatch_waves({1, 1, 2}, 2) == Approx(3 / (4.0 / 3)));
}

SCENARIO("the timer charges a kernel's own dispatch waves instead of its wave count") {
  const device::Device gpu(test::gpu_builder{}.build());
  models::KernelPlan k;
  k.name = "compute-bound tiles";
  k.threads = 256;
  k.max_blocks_per_sm = 1;
  k.pipe = models::Pipe::tensor;
  k.dtype = DataType::bf16;
  k.pipe_flops = 4e9;  // 1 ms of one SM's tensor rate
  k.blocks = 150;      // 1.5 waves: two by wave count
  const double counted = sim::time_kernel(k, gpu).exec_us;
  k.dispatch_waves = 2.5;
  const double scheduled = sim::time_kernel(k, gpu).exec_us;
  CHECK(counted == Approx(2000).epsilon(0.01));
  CHECK(scheduled == Approx(2500).epsilon(0.01));
}

SCENARIO("a causal backward of one head in one wave lasts its longest key block") {
  wl::AttentionOp a;
  a.batch = 1;
  a.heads = a.kv_heads = 1;
  a.seq_q = a.seq_kv = 2048;
  a.head_dim = 128;
  a.dtype = DataType::bf16;
  a.backward = true;
  a.backend = wl::AttentionBackend::cudnn;
  const device::Device gpu(test::gpu_builder{}.build());  // Hopper: cuDNN's 64 x 64 tiles
  a.causal = false;
  CHECK(models::plan_op(a, gpu).front().kernels[2].dispatch_waves == 0);  // equal blocks: wave count
  a.causal = true;
  // 32 key blocks walk 32, 31, ..., 1 query tiles (16.5 on average) on 100 SMs, each with its prologue
  // and epilogue (4 steps' worth): one wave, as long as the first block's 32 tiles and its 4.
  CHECK(models::plan_op(a, gpu).front().kernels[2].dispatch_waves == Approx((32 + 4) / (16.5 + 4)));
}

SCENARIO(
    "a causal warpgroup forward schedules its query blocks longest first; FlashAttention-2 keeps the ratio "
    "rule") {
  wl::AttentionOp a;
  a.batch = 1;
  a.heads = a.kv_heads = 1;
  a.seq_q = a.seq_kv = 4096;  // 32 query blocks of 128 rows walking 1 to 32 key steps
  a.head_dim = 128;
  a.dtype = DataType::bf16;
  a.causal = true;
  const device::Device gpu(test::gpu_builder{}.build());
  a.backend = wl::AttentionBackend::cudnn;
  // One head on 100 SMs: one wave, as long as the longest block (32 steps) over the average (16.5).
  CHECK(models::plan_op(a, gpu).front().kernels.back().dispatch_waves == Approx(32 / 16.5));
  a.backend = wl::AttentionBackend::flash2;
  CHECK(models::plan_op(a, gpu).front().kernels.back().dispatch_waves == 0);
}

namespace {
std::vector<double> repeat(const std::vector<double>& unit, int copies) {
  std::vector<double> grid;
  for (int c = 0; c < copies; ++c) grid.insert(grid.end(), unit.begin(), unit.end());
  return grid;
}
}  // namespace

SCENARIO("a repeated grid is scheduled block by block up to its steady state, then extrapolated") {
  // A causal head: the last query block (every key) first, then shorter ones.
  const std::vector<double> head = {16, 15, 13, 12, 10, 9, 7, 6, 4, 3, 1};
  const double slots = 132;
  const double settle = std::ceil(models::kSteadyStateWaves * slots / head.size());
  THEN("at the boundary (2 x settle + 2 copies) it is the full schedule exactly") {
    const int copies = int(2 * settle + 2);
    CHECK(models::dispatch_waves_repeated(head, copies, slots) ==
          Approx(models::dispatch_waves(repeat(head, copies), slots)));
  }
  THEN("past it, the extrapolated length matches the full schedule within 0.1%") {
    for (int copies : {int(2 * settle + 3), 1000, 4000, 20000}) {
      CHECK(models::dispatch_waves_repeated(head, copies, slots) ==
            Approx(models::dispatch_waves(repeat(head, copies), slots)).epsilon(0.001));
    }
  }
  THEN("an irregular unit on a slot count it does not divide matches too") {
    const std::vector<double> odd = {7, 1, 3, 9, 2, 2, 5};
    for (int copies : {3000, 9001})
      CHECK(models::dispatch_waves_repeated(odd, copies, 264) ==
            Approx(models::dispatch_waves(repeat(odd, copies), 264)).epsilon(0.001));
  }
}
