#pragma once
// The execution units that do a kernel's main arithmetic.
namespace gpucast::device {

enum class Pipe {
  none,
  tensor,    // warpgroup / library tensor-core path (wgmma on Hopper): compute.tensor_tflops x efficiency
  mma_sync,  // warp-level mma.sync path: tensor rate x efficiency.mma_sync
  fp32,      // SIMT FP32 FMA: compute.fp32_tflops x efficiency.fp32
  fp64,      // compute.fp64_tflops x efficiency.fp64
};

}  // namespace gpucast::device
