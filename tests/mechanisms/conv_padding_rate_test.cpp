// cuDNN's channel-padding copies (nhwcAddPaddingKernel, models/conv_model.cpp) move pixel rows that
// are not whole 16-byte vectors with scalar accesses: they read at a share of the streaming DRAM rate,
// the input's pad and the copy out of padded output channels alike; the memsets stream at full rate.
#include <catch2/catch.hpp>

#include "models/op_model.h"
#include "support/gpu_builder.h"

using namespace gpucast;

namespace {
wl::Conv2dOp conv(wl::Count c, wl::Count k) {
  wl::Conv2dOp op;
  op.n = 8;
  op.c = c;
  op.h = op.w = 56;
  op.k = k;
  op.r = op.s = 3;
  op.pad = 1;
  op.dtype = DataType::bf16;
  return op;
}
}  // namespace

SCENARIO("padding copies read below the streaming rate; their memsets do not") {
  const device::Device gpu(test::gpu_builder{}.build());
  // 60 input channels pad to 64, 33 output channels to 40: memset + pad of the input and the filter,
  // the convolution, the copy out.
  const auto kernels = models::plan_op(conv(60, 33), gpu).front().kernels;
  REQUIRE(kernels.size() == 6);
  for (const auto& k : kernels) {
    INFO(k.name);
    const bool copies = k.name.rfind("pad ", 0) == 0 || k.name.rfind("copy output", 0) == 0;
    const bool memset = k.name.rfind("memset", 0) == 0;
    if (copies) CHECK(k.dram_read_efficiency < 1);
    if (memset) CHECK(k.dram_read_efficiency == 1);
  }
  CHECK(kernels.back().name.rfind("copy output", 0) == 0);
  CHECK(kernels.back().dram_read_efficiency < 1);
}
