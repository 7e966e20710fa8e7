// Training batch norm on a channels-last activation (models/batch_norm_model.h): the statistics and
// the backward's sums are cooperative reductions whose grid keeps several blocks down the positions
// only from kMinCoopHBlocks (8) of them, with a semaphore fill and a staging pass; the transform and
// the backward's dX walk the positions in the inference transform's launch. A trace's training batch
// norm of a 16-bit channels-last activation becomes the op; an fp32 one (cuDNN's kernels) does not.
#include <catch2/catch.hpp>

#include "models/batch_norm_model.h"
#include "support/gpu_builder.h"
#include "support/row_builder.h"
#include "workloads/trace/op_recognition.h"
#include "workloads/workload_file.h"

using namespace gpucast;

namespace {
bool has_kernel(const models::PlanOption& p, const char* part) {
  for (const auto& k : p.kernels)
    if (k.name.find(part) != std::string::npos) return true;
  return false;
}
}  // namespace

SCENARIO("the reductions keep a grid reduction only from 8 blocks down the positions") {
  // 16 positions a thread x 16 threads down a block: 256 positions a block.
  CHECK(models::batch_norm_launch(7 * 256, 256, true).grid_y == 1);  // 7 blocks: one walks them all
  CHECK(models::batch_norm_launch(8 * 256, 256, true).grid_y == 8);
  CHECK(models::batch_norm_launch(7 * 256, 256, false).grid_y == 7);  // the transform is not cooperative
  WHEN("one block walks a channel's positions") {
    const auto one = models::batch_norm_launch(7 * 256, 256, true);
    THEN("each thread loops over all of them, 4 at a time") {
      CHECK(one.loop_count == 7 * 256 / 16 / 4);
    }
  }
}

SCENARIO("a training batch norm zeroes semaphores only when its statistics use a grid reduction") {
  const device::Device gpu = test::gpu_builder{}.sms(100).bandwidth_gbps(2000).build();
  const auto grid = models::batch_norm_plan(test::batch_norm_op(8 * 256, 256, true, false), gpu);
  CHECK(grid.kernels.size() == 4);  // fill, statistics, running statistics, transform
  CHECK(has_kernel(grid, "fill"));
  CHECK(has_kernel(grid, "collect_statistics"));
  CHECK(has_kernel(grid, "transform_input"));
  CHECK(grid.kernels[1].l2_rounds > 0);  // the staging pass of the last block
  const auto single = models::batch_norm_plan(test::batch_norm_op(7 * 256, 256, true, false), gpu);
  CHECK(single.kernels.size() == 3);
  CHECK_FALSE(has_kernel(single, "fill"));
  CHECK(single.kernels[0].l2_rounds == 0);
  WHEN("the backward") {
    const auto bwd = models::batch_norm_plan(test::batch_norm_op(8 * 256, 256, true, true), gpu);
    CHECK(bwd.kernels.size() == 3);  // fill, the sums of dY and dY * (X - mean), dX
    CHECK(has_kernel(bwd, "backward_reduce"));
    CHECK(has_kernel(bwd, "backward_elemt"));
    // dX reads X and dY and writes dX; the sums read X and dY. X and dY, 1 MB each, are still in
    // the L2 the sums just read them through (batch_norm_warm_transform_test): only dX reaches DRAM.
    const double bytes = 2.0 * 8 * 256 * 256;
    CHECK(bwd.kernels[2].dram_bytes * bwd.kernels[2].blocks == Approx(bytes));
    CHECK(bwd.kernels[1].dram_bytes * bwd.kernels[1].blocks == Approx(2 * bytes));
  }
}

SCENARIO("a workload file's batchnorm takes training and backward; a backward is a training one") {
  const auto parse = [](const std::string& extra) {
    const auto w = wl::read_workload_text(
        "[[kernel]]\nname = \"bn\"\nop = \"batchnorm\"\nrows = 200704\nchannels = 64\ndtype = \"bf16\"\n" +
            extra,
        "bn.toml");
    return std::get<wl::RowOp>(w.kernels().at(0).op);
  };
  const auto train = parse("training = true\n");
  CHECK((train.training && !train.backward));
  const auto bwd = parse("backward = true\n");
  CHECK((bwd.training && bwd.backward));
  CHECK_FALSE(parse("").training);
}

SCENARIO("a trace's training batch norm of a 16-bit channels-last activation is the batchnorm op") {
  auto op_of = [](const char* name, const char* type, size_t x_index, bool training_flag) {
    trace::CpuOp op;
    op.name = name;
    op.has_shapes = true;
    op.inputs.resize(8);
    trace::OpInput x;
    x.shapes = {{64, 256, 56, 56}};
    x.strides = {{256 * 56 * 56, 1, 56 * 256, 256}};  // channels-last
    x.type = type;
    op.inputs[x_index] = x;
    if (x_index == 1) op.inputs[0] = x;  // backward: grad_out, input
    op.inputs[5].concrete = training_flag ? "True" : "False";
    return trace::recognize_op(op, "batch_norm_collect_statistics_channels_last_kernel");
  };
  const auto fwd = std::get<wl::RowOp>(*op_of("aten::native_batch_norm", "c10::BFloat16", 0, true));
  CHECK((fwd.kind == wl::RowOpKind::batchnorm && fwd.training && !fwd.backward));
  CHECK((fwd.rows == 64 * 56 * 56 && fwd.cols == 256));
  const auto bwd = std::get<wl::RowOp>(*op_of("aten::native_batch_norm_backward", "c10::BFloat16", 1, true));
  CHECK((bwd.backward && bwd.training));
  // fp32 in training runs cuDNN's kernels: not this op.
  CHECK(std::holds_alternative<wl::ElementwiseOp>(*op_of("aten::native_batch_norm", "float", 0, true)));
}

SCENARIO("a batchnorm's training or backward that is not a boolean is an error naming file, line and key") {
  const auto read = [](const std::string& extra) {
    return wl::read_workload_text(
        "[[kernel]]\nname = \"bn\"\nop = \"batchnorm\"\nrows = 200704\nchannels = 64\ndtype = \"bf16\"\n" +
            extra,
        "bn.toml");
  };
  CHECK_THROWS_WITH(read("training = \"yes\"\n"),
                    Catch::Contains("bn.toml:7") && Catch::Contains("'training'"));
  CHECK_THROWS_WITH(read("backward = 1\n"), Catch::Contains("bn.toml:7") && Catch::Contains("'backward'"));
}
