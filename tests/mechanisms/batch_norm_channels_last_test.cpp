// Inference batch norm on a channels-last activation (models/batch_norm_model.h): ATen's
// flexible_launch_configs fixes the transform's launch from the shape (512-thread blocks of at most 32
// channels x 16 positions; at most 128 blocks along the positions), each thread walking its channel
// down the positions; a trace's eval native_batch_norm becomes the `batchnorm` op only when its
// recorded strides say channels-last.
#include <catch2/catch.hpp>

#include "models/batch_norm_model.h"
#include "support/gpu_builder.h"
#include "support/temp_dir.h"
#include "workloads/trace/kineto_trace.h"
#include "workloads/trace/op_recognition.h"

using namespace gpucast;

SCENARIO(
    "the transform's launch: 32 channels x 16 positions a block, at most 128 blocks down the positions") {
  // 56x56 at batch 64 (200,704 positions), 256 channels: 8 x 128 blocks, each thread 25 loops of 4.
  const auto big = models::batch_norm_launch(200704, 256);
  CHECK((big.block_x == 32 && big.block_y == 16 && big.threads() == 512));
  CHECK((big.grid_x == 8 && big.grid_y == 128));
  CHECK(big.loop_count == 25);
  // The cap at its boundary: 128 x 256 positions fill exactly 128 blocks, 256 more make 129 -> 128.
  CHECK(models::batch_norm_launch(128 * 256, 64).grid_y == 128);
  CHECK(models::batch_norm_launch(128 * 256 + 256, 64).grid_y == 128);
  CHECK(models::batch_norm_launch(127 * 256, 64).grid_y == 127);
  // Fewer than 32 channels: the block widens down the positions to keep 512 threads.
  const auto narrow = models::batch_norm_launch(200704, 16);
  CHECK((narrow.block_x == 16 && narrow.block_y == 32 && narrow.grid_x == 1));
  // 7x7 (3,136 positions): 13 blocks down, one loop of 4 per thread.
  const auto small = models::batch_norm_launch(3136, 2048);
  CHECK((small.grid_x == 64 && small.grid_y == 13 && small.loop_count == 4));
}

SCENARIO(
    "few channels leave the GPU few blocks: a 64-channel layer is slower per byte than a 256-channel one") {
  const device::Device gpu = test::gpu_builder{}.sms(100).bandwidth_gbps(2000).build();
  auto plan = [&](long positions, long channels) {
    wl::RowOp r;
    r.kind = wl::RowOpKind::batchnorm;
    r.rows = positions;
    r.cols = channels;
    r.dtype = DataType::bf16;
    return models::batch_norm_plan(r, gpu);
  };
  const auto p = plan(200704, 64);
  REQUIRE(p.kernels.size() == 2);  // the per-channel invstd, then the transform
  const auto& t = p.kernels[1];
  CHECK(t.blocks == 2 * 128);
  CHECK(t.threads == 512);
  // Each thread's 100 positions, 2 loads in flight at a time (kTransformLoadsInFlight, refit on the
  // cold transforms once warm X was modelled), after the statistics' load.
  CHECK(t.dram_rounds == 1 + 50);
  CHECK(t.bytes_in_flight == Approx(512 * 2 * 2));
  CHECK(t.dram_bytes * t.blocks == Approx(2.0 * 2 * 200704 * 64));
}

SCENARIO("a trace's eval batch norm is the channels-last op only when its strides say channels-last") {
  test::TempDir dir;
  auto trace_with = [&](const std::string& strides) {
    const std::string text = R"({"traceEvents": [
      {"ph": "X", "cat": "cpu_op", "name": "aten::native_batch_norm", "pid": 1, "tid": 1, "ts": 10, "dur": 5,
       "args": {"External id": 2, "Input Dims": [[64, 256, 56, 56], [256], [256], [256], [256], [], [], []],
                "Input Strides": [)" +
                             strides + R"(, [1], [1], [1], [1], [], [], []],
                "Input type": ["c10::BFloat16", "float", "float", "float", "float", "Scalar", "Scalar", "Scalar"],
                "Concrete Inputs": ["", "", "", "", "", "False", "0.1", "1e-05"]}},
      {"ph": "X", "cat": "kernel", "name": "batch_norm_transform_input_channels_last_kernel", "pid": 0, "tid": 7,
       "ts": 12, "dur": 30, "args": {"device": 0, "stream": 7, "correlation": 5, "grid": [8, 128, 1],
                                     "block": [32, 16, 1]}}]})";
    return trace::read_kineto_trace(dir.write("bn.json", text).string());
  };
  const auto nhwc = trace_with("[802816, 1, 14336, 256]");
  REQUIRE(nhwc.cpu_ops.size() == 1);
  REQUIRE(nhwc.cpu_ops[0].inputs[0].strides.size() == 1);
  CHECK(nhwc.cpu_ops[0].inputs[0].strides[0] == std::vector<std::int64_t>{802816, 1, 14336, 256});
  const auto op = trace::recognize_op(nhwc.cpu_ops[0], "batch_norm_calc_invstd");
  REQUIRE(op);
  const auto* bn = std::get_if<wl::RowOp>(&*op);
  REQUIRE(bn);
  CHECK((bn->kind == wl::RowOpKind::batchnorm && bn->rows == 64 * 56 * 56 && bn->cols == 256));
  // Contiguous NCHW: the pointwise pass it was before.
  const auto nchw = trace_with("[802816, 3136, 56, 1]");
  const auto pw = trace::recognize_op(nchw.cpu_ops[0], "batch_norm_calc_invstd");
  REQUIRE(pw);
  CHECK(std::holds_alternative<wl::ElementwiseOp>(*pw));
}
