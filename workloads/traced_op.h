#pragma once
// The `traced` op family: a kernel measured in a profiler trace that no op model re-predicts.
// It keeps the measured duration on the source GPU and the mechanism that bounds it there (its
// bound class), with the source GPU's figure for that mechanism, so a workload file holding it
// predicts on any GPU by scaling (sim/traced_timing.h): memory-bound by sustained DRAM bandwidth,
// compute-bound by the pipe's sustained rate, sub-wave (latency) kernels by clock and waves,
// launch-floor kernels by the floor.
#include <string>
#include <tuple>

#include "common/dtype.h"

namespace gpucast::wl {

enum class TracedBound { memory, compute, latency, launch };
[[nodiscard]] std::string_view traced_bound_name(TracedBound b);

enum class TracedPipe { tensor, fp32 };

struct TracedOp {
  double measured_us = 0;   // GPU time on the source GPU (summed over its kernels)
  std::string source_gpu;   // catalog id of the GPU the trace was recorded on
  TracedBound bound = TracedBound::memory;
  TracedPipe pipe = TracedPipe::fp32;  // compute-bound kernels: which pipe
  DataType dtype = DataType::fp32;     // compute-bound kernels on tensor cores: the operand type
  // The source GPU's figure for the bound class (only the one the class uses is needed).
  double source_dram_gbps = 0;  // sustained DRAM bandwidth
  double source_tflops = 0;     // sustained rate of the pipe
  double source_clock_mhz = 0;  // sustained SM clock
  int source_sms = 0;
  double source_floor_us = 0;   // the shortest kernel's GPU time (back-to-back launch floor)
  double blocks = 0;            // thread blocks of the kernel (0: unknown)
  int kernels = 1;              // trace kernels it stands for
  double bytes = 0;             // work estimate used for the bound (0: unknown)
  double flops = 0;
  // Every parameter, once: equality and hashing (sim/op_cache_key.h) read this list.
  [[nodiscard]] auto fields() const {
    return std::tie(measured_us, source_gpu, bound, pipe, dtype, source_dram_gbps, source_tflops, source_clock_mhz,
                    source_sms, source_floor_us, blocks, kernels, bytes, flops);
  }
};

[[nodiscard]] std::string traced_shape(const TracedOp& op);

}  // namespace gpucast::wl
