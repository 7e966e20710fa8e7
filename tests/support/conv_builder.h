#pragma once
// Builds NHWC convolutions for tests, square image and filter, with round defaults so a test names
// only what it is about: conv_builder{}.channels(3).image(224).kernel(7).stride(2).build().
// Defaults: batch 8, 64 input channels, a 56x56 image, 64 filters of 3x3, stride 1, bf16; the padding
// keeps the image size ("same": kernel / 2) unless pad() sets it.
#include <optional>

#include "workloads/ops/conv2d.h"

namespace gpucast::test {

class conv_builder {
 public:
  conv_builder& batch(wl::Count n) { return op_.n = n, *this; }
  conv_builder& channels(wl::Count c) { return op_.c = c, *this; }
  conv_builder& image(wl::Count hw) { return op_.h = op_.w = hw, *this; }
  conv_builder& filters(wl::Count k) { return op_.k = k, *this; }
  conv_builder& kernel(wl::Count r) { return op_.r = op_.s = r, *this; }
  conv_builder& stride(wl::Count s) { return op_.stride = s, *this; }
  conv_builder& pad(wl::Count p) { return pad_ = p, *this; }
  conv_builder& dtype(DataType t) { return op_.dtype = t, *this; }
  conv_builder& allow_tf32(bool on) { return op_.allow_tf32 = on, *this; }
  [[nodiscard]] wl::Conv2dOp build() const {
    wl::Conv2dOp op = op_;
    op.pad = pad_.value_or(op.r / 2);
    return op;
  }

 private:
  wl::Conv2dOp op_ = defaults();
  std::optional<wl::Count> pad_;
  static wl::Conv2dOp defaults() {
    wl::Conv2dOp op;
    op.n = 8;
    op.c = 64;
    op.h = op.w = 56;
    op.k = 64;
    op.r = op.s = 3;
    op.dtype = DataType::bf16;
    return op;
  }
};

}  // namespace gpucast::test
