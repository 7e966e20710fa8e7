#pragma once
// The conv2d op family: 2-D convolution, NHWC, as cuDNN runs it. Model: models/conv_model.h
// (algorithm choice in models/conv_algorithm.h).
#include <tuple>

#include "workloads/op_schema.h"

namespace gpucast::wl {

struct Conv2dOp {  // NHWC; output (n, p, q, k)
  Count n = 0, c = 0, h = 0, w = 0, k = 0, r = 0, s = 0, stride = 1, pad = 0;
  DataType dtype = DataType::bf16;
  // fp32 only: cuDNN may run TF32 tensor cores (torch.backends.cudnn.allow_tf32, true by default in
  // PyTorch); false keeps fp32 on the FMA (SIMT) kernels.
  bool allow_tf32 = true;
  [[nodiscard]] bool uses_tf32() const { return dtype == DataType::fp32 && allow_tf32; }
  // Every parameter, once: equality and hashing (sim/op_cache_key.h) read this list.
  [[nodiscard]] auto fields() const { return std::tie(n, c, h, w, k, r, s, stride, pad, dtype, allow_tf32); }
  [[nodiscard]] Count p() const { return (h + 2 * pad - r) / stride + 1; }
  [[nodiscard]] Count q() const { return (w + 2 * pad - s) / stride + 1; }
};
GPUCAST_OP_FAMILY(Conv2dOp);

}  // namespace gpucast::wl
