// cuDNN's channel-padding copies (nhwcAddPaddingKernel, models/conv_model.cpp) move pixel rows that
// are not whole 16-byte vectors with scalar accesses: they read at a share of the streaming DRAM rate,
// the input's pad and the copy out of padded output channels alike; the memsets stream at full rate.
#include <catch2/catch.hpp>

#include "models/op_model.h"
#include "support/conv_builder.h"
#include "support/gpu_builder.h"

using namespace gpucast;

namespace {
wl::Conv2dOp conv(wl::Count c, wl::Count k) {
  return test::conv_builder{}
      .batch(8)
      .channels(c)
      .image(56)
      .filters(k)
      .kernel(3)
      .dtype(DataType::bf16)
      .pad(1)
      .build();
}
}  // namespace

SCENARIO("padding copies read below the streaming rate; their memsets do not") {
  const device::Device gpu(test::gpu_builder{}.build());
  // 60 input channels pad to 64, 33 output channels to 40: memset + pad of the input and the filter,
  // the sm90 kernel's workspace memset (its grid runs more than two waves: conv_sm90_memset_test.cpp),
  // the convolution, the copy out.
  const auto kernels = models::plan_op(conv(60, 33), gpu).front().kernels;
  REQUIRE(kernels.size() == 7);
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
