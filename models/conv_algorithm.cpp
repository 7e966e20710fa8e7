#include "models/conv_algorithm.h"

#include <algorithm>
#include <cmath>

namespace gpucast::models {
// Library facts, named once. Sources: kernel names in the profiles of the validation runs
// (validation/<gpu>/kernels.json, H100 and H200, cuDNN 9.19) and in public PyTorch profiles.

namespace {
// Tensor-core convolution kernels read channels as 16-byte vectors: cuDNN pads C to 8 bf16/fp16
// or 4 tf32 elements with nhwcAddPaddingKernel first (the 3-channel stem in kernels.json).
constexpr double kTensorChannelBytes = 16;
// Channels that fit in one 64-byte mma.sync K step (32 bf16) run CUTLASS 2.x "fprop_optimized"
// sm80 kernels even on Hopper (cutlass_tensorop_bf16_s16816fprop_optimized_bf16_256x64_32x4
// for C = 3 padded to 8, dev case conv2d-0320; ..._64x128_32x... for C = 32, conv2d-0368); wider
// inputs run the sm90 xmma implicit-precomputed-GEMM kernels (sm90_xmma_fprop_implicit_gemm_...).
// The heuristic also picks the sm80 kernels for some small wider problems (conv2d-0361, C = 96),
// which this rule, keyed on the K step, does not follow.
constexpr double kFewChannelBytes = 64;
// The sm80 fprop kernels exist for 16- and 32-bit operands (fp16, bf16, tf32): elements of at
// least this many bytes (cutlass_tensorop_*_s16816fprop_* / *_s1688fprop_* names; library fact).
constexpr double kFewChannelMinElementBytes = 2;
// FP32 Winograd: cuDNN's fused scudnn_winograd_128x128 kernels (maxwell_, volta_, ampere_
// prefixes in public PyTorch and TensorFlow profiles of FP32 3x3 convolutions) exist up to
// Ampere/Ada. On Hopper the H100 and H200 runs time an FP32 3x3 stride-1 convolution
// (32x14x14x256, k256; validation/runs/<gpu>/results.json, C_conv2d_fwd) at 27-29 TFLOP/s of
// useful work, below the FP32 GEMM rate, which a 2.25x multiply reduction would exceed: the
// heuristic runs an implicit GEMM there (dev data).
constexpr int kLastWinogradCcMajor = 8;
// Winograd F(2x2, 3x3) covers 3x3 filters only (the scudnn_winograd kernels' filter size).
constexpr int kWinogradFilterSide = 3;
// FP32 with TF32 off on Hopper (cuDNN 9.19, H100 and H200 profiles in validation/<gpu>/kernels.json):
// inputs of up to this many channels run the direct NHWC kernel (convolve_common_engine_float_NHWC,
// at C = 3, 5 and 13); wider ones (C = 64 and up) transpose to NCHW and run sm80 SIMT implicit GEMMs
// (conv_fma_nchw.h), 1x1 filters included. Between 13 and 64 is an assumption.
// fp16 and tf32 inputs whose channels fill less than one 16-byte vector run
// sm80_xmma_fprop_implicit_gemm_indexed_wo_smem_{f16,tf32}* unpadded (conv2d-1113, -1118 tf32 and
// -1119 fp16, C = 3); bf16 has no such kernel and pads to 8 channels first (conv2d-0320). Library
// facts from the H100 and H200 profiles (validation/<gpu>/kernels.json).
[[nodiscard]] bool has_indexed_few_channel_kernel(DataType math) {
  return math == DataType::fp16 || math == DataType::tf32;
}
constexpr double kFmaDirectMaxChannels = 16;
// 1x1 stride-1 FP32 convolutions (TF32 off, Hopper) run the direct kernel over more channels, by the
// output image's size (dev probes probe-fp32-conv.json, 2026-11-27, k = 64 at 28, 56 and 112 pixels a
// side, and probe-fp32-pointwise-conv.json, 2026-11-28, C = 24 and 48, k = 16-128, at 28, 56 and 113;
// validation/h100-sxm/; library facts from the kernels' names):
//  - output images whose pixel count is not a multiple of 4 (113 x 113): the direct kernel at every
//    batch and k up to 50 channels (all twenty such probe cases; tune-conv2d-0467, 13 x 13, C = 50).
//    Read as the NCHW implicit GEMM reading each channel's pixel row in 4-element (16-byte) vectors
//    (its names end aligna4_alignc4), which such rows are not;
//  - images of up to 28 x 28 pixels: the direct kernel at every batch up to 96 channels;
//  - one image (batch 1) of up to 56 x 56 pixels: the direct kernel up to 64 channels (96: the NCHW
//    path). Larger images and batches run the NCHW path above 16 channels (the probes' 4 x 56 x 56
//    at k = 16 and 33 ran the direct kernel, which this rule does not follow).
// Up to 16 channels a 1x1 FP32 convolution runs the direct kernel too, not a GEMM (all 36 such
// cases of probe-fp32-conv.json, C = 8 and 16, 28-112 pixels a side, batch 1-16).
constexpr double kFmaNchwPixelVector = 4;
constexpr double kFmaDirectPointwiseUnalignedMaxChannels = 50;
constexpr double kFmaDirectPointwiseSmallImagePixels = 28 * 28;
constexpr double kFmaDirectPointwiseSmallImageMaxChannels = 96;
constexpr double kFmaDirectPointwiseOneImagePixels = 56 * 56;
constexpr double kFmaDirectPointwiseOneImageMaxChannels = 64;
[[nodiscard]] bool fp32_pointwise_runs_direct(const wl::Conv2dOp& op) {
  const double c = double(op.c);
  const double pixels = double(op.p()) * double(op.q());
  if (std::fmod(pixels, kFmaNchwPixelVector) != 0 && c <= kFmaDirectPointwiseUnalignedMaxChannels)
    return true;
  if (pixels <= kFmaDirectPointwiseSmallImagePixels && c <= kFmaDirectPointwiseSmallImageMaxChannels)
    return true;
  return op.n == 1 && pixels <= kFmaDirectPointwiseOneImagePixels &&
         c <= kFmaDirectPointwiseOneImageMaxChannels;
}
// The indexed kernels store whole 8-channel output vectors: their names end alignc8
// (sm80_xmma_fprop_implicit_gemm_indexed_wo_smem_tf32f32_..._aligna4_alignc8, ..._f16f16_..._aligna2_alignc8;
// library fact). Output channels that are not a multiple of it run the direct NHWC kernel instead
// (convolve_common_engine_float_NHWC<float, ...> for tf32 at C = 3, K = 33, tune-conv2d-0452 and
// kernels-tuning2's tune-conv2d-0480; <__half, ..., 128, ...> for fp16 at C = 3, K = 7,
// kernels-tuning2's tune-conv2d-0497), while K = 32 and 64 keep the indexed kernel (conv2d-1113,
// -1118, -1119; H100 and H200 profiles, dev and calibration splits, and the tuning sets).
constexpr double kIndexedOutputChannelAlign = 8;
// A 1x1 stride-1 tf32 convolution whose channels fill less than one 16-byte vector is not run as a
// GEMM: it follows the few-channel rules above (the direct NHWC kernel in fp32 at C = 3, K = 33,
// tune-conv2d-0462 of kernels-tuning.json; library fact from that profile), while 16-bit ones run
// the GEMM (conv_model.cpp; tune-conv2d-0461, fp16 C = 3).
// bf16 has no indexed kernel: below one 16-byte channel vector (C < 8) cuDNN pads to 8 channels for
// the sm80 fprop kernel only for 7x7 filters (conv2d-0320 and tune-conv2d-0473, 7x7 stride-2 stems);
// other filters run FMA kernels on the unpadded tensors: convolve_common_engine_float_NHWC<
// __nv_bfloat16, ...> at 3x3 stride 2, C = 3, K = 257 (tune-conv2d-0489) and 5x5, C = 5, K = 16
// (-0500), implicit_convolve_sgemm<__nv_bfloat16, ...> at 1x1 stride 2, C = 3 (-0498; timed as the
// direct kernel). Library facts from the H100 profiles (dev and kernels-tuning2.json).
constexpr wl::Count kBf16PaddedStemFilterSide = 7;
constexpr int kFmaNchwMinCcMajor = 9;
// The sm80 indexed kernels run on sm80 and later (their sm80_ prefix; library fact).
constexpr int kFewChannelIndexedMinCcMajor = 8;
// fp16 and tf32 inputs of at least one 16-byte vector but up to kFmaDirectMaxChannels channels
// that are not whole vectors (9-15 fp16, 5-15 tf32) are not padded for tensor cores: cuDNN runs
// FMA kernels on the unpadded tensors, in fp32 arithmetic: convolve_common_engine_float_NHWC<__half,
// __half, 128, ...> for fp16 at C = 13 (conv2d-1158) and the sm80 FFMA kernel
// sm80_xmma_fprop_implicit_gemm_indexed_f32f32_..._ffma for tf32 at C = 13 (conv2d-1145); library
// facts from the H100 and H200 profiles of those calibration cases. Channels that are whole vectors
// (tf32 C = 24, conv2d-1152; fp16 C = 32, conv2d-1124) keep the tensor cores.
[[nodiscard]] bool runs_fma_for_unaligned_channels(const wl::Conv2dOp& op, DataType math, double align) {
  const double c = double(op.c);
  return (math == DataType::fp16 || math == DataType::tf32) && c >= align && c <= kFmaDirectMaxChannels &&
         std::fmod(c, align) != 0;
}
}  // namespace

std::string conv_algorithm_name(const ConvChoice& c) {
  const std::string math =
      c.tensor ? std::string(to_string(c.math)) + " tensor cores" : std::string(to_string(c.math)) + " FMA";
  switch (c.algorithm) {
    case ConvAlgorithm::gemm:
      return "conv as gemm (" + math + ")";
    case ConvAlgorithm::implicit_precomp_gemm:
      return "implicit precomputed gemm (" + math + ")";
    case ConvAlgorithm::few_channel_gemm:
      return "few-channel implicit gemm, sm80 mma.sync (" + math + ")";
    case ConvAlgorithm::simt_implicit_gemm:
      return "implicit precomputed gemm (" + math + ")";
    case ConvAlgorithm::winograd:
      return "winograd F(2x2,3x3) fused (" + math + ")";
    case ConvAlgorithm::few_channel_indexed:
      return "few-channel indexed implicit gemm, sm80 mma.sync (" + math + ")";
    case ConvAlgorithm::simt_nchw_gemm:
      return "NCHW implicit gemm with layout transposes (" + math + ")";
    case ConvAlgorithm::fma_direct:
      return "direct NHWC convolution (" + math + ")";
  }
  return "conv";
}

ConvChoice choose_conv_algorithm(const wl::Conv2dOp& op, const device::Device& gpu) {
  ConvChoice c;
  c.math = op.dtype;
  // FP32 runs as TF32 on tensor cores when PyTorch allows it and the GPU has TF32 (Ampere on);
  // otherwise on the FMA pipe (cuDNN's CUDNN_FMA_MATH kernels), as FP64 always does.
  if (op.dtype == DataType::fp32 && op.allow_tf32 && gpu.has_tensor(DataType::tf32)) c.math = DataType::tf32;
  c.tensor = c.math != DataType::fp32 && c.math != DataType::fp64;
  const double e = bytes_per_element(c.math);
  const double align = c.tensor ? std::max(1.0, kTensorChannelBytes / e) : 1;
  c.channels = std::ceil(double(op.c) / align) * align;
  c.channel_align = align;

  const bool pointwise = op.r == 1 && op.s == 1 && op.stride == 1 && op.pad == 0;
  const bool below_one_vector = c.tensor && double(op.c) * e < kTensorChannelBytes;
  const bool indexed_stores_whole_vectors = std::fmod(double(op.k), kIndexedOutputChannelAlign) == 0;
  const bool hopper = gpu.cc_major() >= kFmaNchwMinCcMajor;
  if (c.math == DataType::fp32 && hopper && double(op.c) > kFmaDirectMaxChannels) {
    c.algorithm = pointwise && fp32_pointwise_runs_direct(op) ? ConvAlgorithm::fma_direct
                                                              : ConvAlgorithm::simt_nchw_gemm;
  } else if (pointwise && !(hopper && below_one_vector && c.math == DataType::tf32) &&
             !(hopper && c.math == DataType::fp32)) {
    c.algorithm = ConvAlgorithm::gemm;
    c.channels = double(op.c);  // a GEMM over the unpadded tensors (conv_model.cpp)
  } else if (c.tensor && hopper &&
             (runs_fma_for_unaligned_channels(op, c.math, align) ||
              (below_one_vector && has_indexed_few_channel_kernel(c.math) && !indexed_stores_whole_vectors) ||
              (below_one_vector && c.math == DataType::bf16 &&
               !(op.r == kBf16PaddedStemFilterSide && op.s == kBf16PaddedStemFilterSide)))) {
    // FP32 arithmetic on the FMA pipe over unpadded channels (TF32 rounding does not apply).
    if (c.math == DataType::tf32) c.math = DataType::fp32;
    c.tensor = false;
    c.channels = double(op.c);
    c.channel_align = 1;
    c.algorithm = ConvAlgorithm::fma_direct;
  } else if (c.tensor && double(op.c) * e < kTensorChannelBytes && has_indexed_few_channel_kernel(c.math) &&
             gpu.cc_major() >= kFewChannelIndexedMinCcMajor) {
    c.algorithm = ConvAlgorithm::few_channel_indexed;
    c.channels = double(op.c);
  } else if (c.tensor) {
    // 8-bit types keep the implicit GEMM (no sm80 fprop kernel for them).
    const bool few = e >= kFewChannelMinElementBytes && c.channels * e <= kFewChannelBytes;
    c.algorithm = few ? ConvAlgorithm::few_channel_gemm : ConvAlgorithm::implicit_precomp_gemm;
  } else if (c.math == DataType::fp32 && op.r == kWinogradFilterSide && op.s == kWinogradFilterSide &&
             op.stride == 1 && gpu.cc_major() <= kLastWinogradCcMajor) {
    c.algorithm = ConvAlgorithm::winograd;
  } else if (c.math == DataType::fp32 && gpu.cc_major() >= kFmaNchwMinCcMajor) {
    c.algorithm = ConvAlgorithm::fma_direct;  // up to kFmaDirectMaxChannels (wider: the NCHW path above)
  } else {
    c.algorithm = ConvAlgorithm::simt_implicit_gemm;
  }
  return c;
}

}  // namespace gpucast::models
