// cuDNN's SDPA kernels compute on a head-dimension tile of 64, 128 or 256
// (models/attention_head_tile.h): head_dim 65 to 128 costs the products of 128, forward and backward;
// the tensors read and written keep their own size.
#include <catch2/catch.hpp>

#include "models/attention_head_tile.h"
#include "models/op_model.h"
#include "support/gpu_builder.h"

using namespace gpucast;

namespace {
models::KernelPlan main_kernel(wl::Count head_dim, bool backward) {
  wl::AttentionOp a;
  a.batch = 1;
  a.heads = a.kv_heads = 16;
  a.seq_q = a.seq_kv = 2048;
  a.head_dim = head_dim;
  a.dtype = DataType::bf16;
  a.backward = backward;
  a.backend = wl::AttentionBackend::cudnn;
  const device::Device gpu(test::gpu_builder{}.build());  // Hopper: cuDNN's warpgroup kernels
  const auto ks = models::plan_op(a, gpu).front().kernels;
  return ks.at(backward ? 2 : 1);  // after the memset (and, backward, dot(dO, O))
}
}  // namespace

SCENARIO("the tile is the smallest of 64, 128 and 256 that holds the head") {
  CHECK(models::cudnn_head_dim_tile(64) == 64);
  CHECK(models::cudnn_head_dim_tile(65) == 128);
  CHECK(models::cudnn_head_dim_tile(128) == 128);
  CHECK(models::cudnn_head_dim_tile(129) == 256);
}

SCENARIO("head_dim 80 computes the products of 128 and reads its own 80 columns") {
  for (bool backward : {false, true}) {
    const auto d80 = main_kernel(80, backward), d128 = main_kernel(128, backward);
    CHECK(d80.pipe_flops == Approx(d128.pipe_flops));
    CHECK(d80.dram_bytes < d128.dram_bytes);
  }
  CHECK(main_kernel(64, false).pipe_flops == Approx(main_kernel(128, false).pipe_flops / 2));
}
