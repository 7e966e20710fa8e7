#pragma once
// How far a kernel is from what the hardware can do, as Nsight Compute's "GPU Speed Of Light"
// section reports it: the FLOP/s it achieves over the dense peak of the pipe its data type runs on
// (tensor cores for matrix math in a type the GPU has tensor rates for, else the FP32 or FP64
// CUDA cores), its DRAM bytes/s over the DRAM peak, and the utilization of the resource that bounds
// it. The peaks are the datasheet's (reports/ reads them from the GPU description), so 100% is the
// datasheet's speed of light; here are the pipe choice and the arithmetic.
#include <string>

#include "device/device.h"
#include "sim/kernel_timer.h"
#include "workloads/op.h"

namespace gpucast::sim {

struct SpeedOfLight {
  std::string pipe;             // "tensor bf16", "fp32", "fp64"
  double peak_tflops = 0;       // that pipe's dense peak
  double achieved_tflops = 0;   // useful FLOPs over the duration
  double compute_pct = 0;       // achieved / peak, percent
  double peak_gbps = 0;         // DRAM peak
  double achieved_gbps = 0;     // DRAM bytes over the duration
  double memory_pct = 0;        // achieved / peak, percent
  double bound_pct = 0;         // compute_pct or memory_pct for the bound; the larger for latency/launch
};

// The pipe an op's arithmetic runs on at its peak: tensor cores for GEMM, attention and convolution
// in a data type the GPU has a tensor rate for, else FP64 or FP32 CUDA cores.
[[nodiscard]] std::string sol_pipe(const wl::Op& op, const device::Device& gpu);

// Figures for `flops` and `dram_bytes` done in `duration_us` against the given peaks (achieved and
// percentages zero when the duration is not positive). `bound` picks bound_pct.
[[nodiscard]] SpeedOfLight speed_of_light(const std::string& pipe, double peak_tflops, double peak_gbps,
                                          double flops, double dram_bytes, double duration_us, Bound bound);

}  // namespace gpucast::sim
