#pragma once
// Which cuDNN algorithm family runs a 2-D convolution, and on which math units, as PyTorch's
// default heuristic mode (torch.backends.cudnn.benchmark = False) picks it by shape, type and
// architecture. The rules and the library facts behind them are in conv_algorithm.cpp; the
// timing of each family is in conv_model.cpp.
#include <string>

#include "common/dtype.h"
#include "device/device.h"
#include "workloads/op.h"

namespace gpucast::models {

enum class ConvAlgorithm {
  gemm,                   // 1x1 stride 1: the convolution is a GEMM (cuBLAS-class kernels)
  implicit_precomp_gemm,  // tensor cores: implicit GEMM with precomputed tap offsets (sm90 xmma)
  few_channel_gemm,       // tensor cores, input channels within one mma.sync K step (sm80 CUTLASS fprop)
  few_channel_indexed,    // fp16 / tf32 with channels below one 16-byte vector: sm80 indexed kernel, unpadded
  simt_implicit_gemm,     // FP32 on the FMA pipe: implicit precomputed GEMM, SIMT tiles
  winograd,               // FP32 on the FMA pipe, 3x3 stride 1: fused Winograd F(2x2, 3x3)
  simt_nchw_gemm,  // FP32 on the FMA pipe, Hopper: transposes to NCHW around an sm80 SIMT implicit GEMM
  fma_direct,      // FMA pipe, Hopper, a few input channels: cuDNN's direct NHWC kernel (conv_fma_direct.h)
};

struct ConvChoice {
  ConvAlgorithm algorithm = ConvAlgorithm::implicit_precomp_gemm;
  DataType math = DataType::bf16;  // operand type the kernel computes in (tf32 for fp32 with TF32 allowed)
  bool tensor = true;              // tensor cores; false: the FMA (SIMT) pipe
  double channels = 0;             // input channels as the kernel reads them (padded to its alignment)
  double channel_align = 1;        // channels per 16-byte vector on the tensor-core paths (1: no padding)
};

// The family's name as `explain` shows it.
[[nodiscard]] std::string conv_algorithm_name(const ConvChoice& choice);
[[nodiscard]] ConvChoice choose_conv_algorithm(const wl::Conv2dOp& op, const device::Device& gpu);

}  // namespace gpucast::models
