#pragma once
// Which type each part of a generated transformer runs in when the weights are narrower than 16
// bits. Low-precision recipes quantize the GEMM inputs only: the residual stream, norms, pointwise
// work and the tensor-parallel exchanges stay in bf16 (Transformer Engine's FP8 recipe; TensorRT-LLM
// and vLLM FP8/NVFP4 checkpoints from ModelOpt), and the KV cache and attention are never narrower
// than fp8 (NVFP4/MXFP4 recipes keep an FP8 KV cache: there is no FP4 attention kernel in them).
#include "common/dtype.h"

namespace gpucast::wl {

// The residual stream, norms, pointwise kernels, embeddings and activation collectives.
[[nodiscard]] constexpr DataType activation_dtype(DataType weights) {
  switch (weights) {
    case DataType::fp8:
    case DataType::int8:
    case DataType::fp6:
    case DataType::fp4:
      return DataType::bf16;
    default:
      return weights;
  }
}

// The KV cache and the attention kernel.
[[nodiscard]] constexpr DataType kv_cache_dtype(DataType weights) {
  return weights == DataType::fp4 || weights == DataType::fp6 ? DataType::fp8 : weights;
}

}  // namespace gpucast::wl
