#pragma once
// GEMM as cuBLAS-class libraries run it: output tiles on thread blocks, a K loop fed through L2,
// split-K for skinny shapes, wave quantization across SMs. Convolution reuses it as implicit GEMM.
#include <string>
#include <vector>

#include "models/op_model.h"

namespace gpucast::models {

// One output tile shape a library kernel ships (rows x columns of C).
struct GemmTile {
  double tm = 0, tn = 0;
  // Warps of the kernel's thread block where its name gives them (cuBLAS's FP32 SIMT kernels,
  // warpsize<a>x<b>x1); 0: the model's default thread count for the tile.
  double warps = 0;
};

struct GemmShape {
  double m = 0, n = 0, k = 0, batch = 1;
  DataType in = DataType::bf16;
  DataType out = DataType::bf16;
  // Executed over useful K: implicit GEMM walks filter taps whose few channels are padded to the
  // tile's K step (a 3-channel image conv executes ~20x its useful FLOPs). 1 for a plain GEMM.
  double k_padding_factor = 1;
  // Extra DRAM bytes the operand A really needs beyond m*k (implicit GEMM reads activations once,
  // not r*s times): when > 0 it replaces m*k*bytes in the reuse model.
  double a_unique_bytes = 0;
  // Share of the A tile's rows a K step loads: implicit GEMM's taps that fall in the zero padding
  // around the image load nothing (predicated off or zero-filled by the copy engine). 1 for a GEMM.
  double a_loaded_share = 1;
  // A tile gathers that the K loop does not overlap: every tile an SM runs after its first pays this
  // many cycles per loaded A byte on top of the timed K loop (0: the gathers hide under the MMAs, as
  // in every GEMM). cuDNN's sm90 convolution kernels over pixel rows that are not whole 128-byte
  // lines (conv_model.cpp).
  double a_serial_cycles_per_byte = 0;
  double efficiency = 1;  // library-path factor on the tensor rate (implicit GEMM address math)
  // Ampere-class (sm80) kernels on warp-level mma.sync: K steps of one 64-byte row, no
  // thread-block-cluster multicast, no wgmma 64-row minimum; on Hopper the mma_sync pipe. cuDNN
  // runs these for convolutions the sm90 kernels do not cover (few input channels).
  bool warp_mma = false;
  // cuBLAS's narrow-load fallback for unaligned operands (gemm_alignment.h): its own tile set.
  bool unaligned_fallback = false;
  // The fallback's sm75 kernels (16-bit, align1): two stages staged through registers, each K step
  // waiting on its narrow loads (gemm_model.cpp).
  bool register_staged = false;
  // Serial cycles each K step of a block lasts at least (0: the K loop hides under its MMAs): cuBLAS's
  // small tf32 kernels on Hopper, one warp per sub-partition (gemm_model.cpp).
  double k_step_cycles = 0;
  // Small fp16 fallback GEMMs: cuBLAS's sm75 WMMA kernel, one warp per 32x32 tile (gemm_model.cpp).
  bool fallback_wmma = false;
  // cuBLAS's kernels without a warp-specialized epilogue (the SIMT kernels and the fallback's
  // CUTLASS 2.x kernels) store each tile after its K loop; the wave's output drains through DRAM
  // with no K loop running. The nvjet/sm90 kernels overlap it (ping-pong) or price it apart
  // (cooperative tiles); cuDNN's convolution kernels leave it unset.
  bool exposed_epilogue = false;
  // Tensor-core tiles of 96x96 and up run as 2-CTA clusters that multicast the A tile (cuBLAS's
  // nvjet kernels name their cluster shape). cuDNN's implicit-GEMM convolution kernels name none
  // (sm90_xmma_fprop_implicit_gemm_..._warpgroupsize1x1x1_g1_...): every CTA loads its own A tile.
  bool cluster_multicast = true;
  // Hopper tiles with another tile beside them along M run as 2-CTA clusters along M that multicast
  // the B tile (the filter of an implicit-GEMM convolution) to both CTAs: each reads half of it.
  bool cluster_multicast_b = false;
  // cuDNN's sm90 convolution kernels' segment-K mode ("execute_segment_k_on"): a grid of more than
  // one wave and under two, over a long K, runs as one persistent CTA per SM, each taking an equal
  // share of all tiles' K iterations (no wave quantization, partial tiles fixed up in the kernel).
  bool segment_k = false;
  // Split-K options with a separate reduce kernel (cuBLAS's). cuDNN's convolution kernels have none.
  bool split_k = true;
  // cuBLAS's heuristic splits K, down to one K step per split, whenever 64x64 tiles of the output
  // would fill under this share of the SMs, and never runs those grids unsplit: its sm75 fallback
  // kernels and its fp32 SIMT kernels (gemm_model.cpp). 0: the split-K options compete on time.
  double split_max_fill = 0;
  // A library with its own kernels (cuDNN's implicit-GEMM convolutions) ships its own tile shapes:
  // when set, these replace cuBLAS's tile tables.
  std::vector<GemmTile> tiles;
};

// Bytes a tiled GEMM moves through DRAM when `concurrent` tiles of tm x tn run at once and share
// operand panels through the L2 (`l2_reuse_bytes`: the share a reused set keeps). At least every operand
// once; at most no reuse.
[[nodiscard]] double gemm_dram_bytes(const GemmShape& g, double tm, double tn, double concurrent,
                                     double l2_reuse_bytes);

// K-step depth of a tensor-core GEMM pipeline stage, in elements: one 128-byte row of each operand
// (library fact: CUTLASS/cuBLAS tile K of 64 bf16 or 128 fp8 elements).
[[nodiscard]] double gemm_k_step(DataType t);
// K-step depth of an mma.sync (sm80-class) kernel: one 64-byte row of each operand (CUTLASS 2.x
// tile K of 32 bf16 elements, e.g. cuDNN's ..._256x64_32x4_nhwc_align8 fprop kernel).
[[nodiscard]] double warp_mma_k_step(DataType t);

// Every tile / split-K configuration worth trying for `g` on `gpu`.
[[nodiscard]] std::vector<PlanOption> gemm_options(const GemmShape& g, const device::Device& gpu);

class GemmModel final : public OpModel {
 public:
  [[nodiscard]] std::vector<PlanOption> plan(const wl::Op& op, const device::Device& gpu) const override;
};

}  // namespace gpucast::models
