#pragma once
// The `traced` op family on a GPU (workloads/traced_op.h): one GPU's figures for each bound class,
// the same formulas for the trace's source GPU and the target, and the measured time scaled by
// the class's mechanism.
#include "device/device.h"
#include "sim/op_predictor.h"
#include "workloads/traced_op.h"

namespace gpucast::sim {

struct TracedFigures {
  double dram_gbps = 0;   // sustained DRAM bandwidth
  double tflops = 0;      // sustained rate of the pipe (whole GPU)
  double clock_mhz = 0;   // sustained SM clock
  double floor_us = 0;    // the shortest kernel as a trace sees it (launch.queued_kernel_us)
  int sms = 0;
};
[[nodiscard]] TracedFigures traced_figures(const device::Device& gpu, wl::TracedPipe pipe, DataType dtype);

// Fills the source figures of `op` from the GPU the trace was recorded on.
void set_traced_source(wl::TracedOp& op, const device::Device& source);

// The kernel's GPU time on `target`, scaled by the mechanism of its bound class.
[[nodiscard]] double traced_duration_us(const wl::TracedOp& op, const device::Device& target);

// Standalone timing: the scaled time as execution, one launch per traced kernel.
[[nodiscard]] OpTiming traced_timing(const wl::TracedOp& op, const device::Device& gpu);

}  // namespace gpucast::sim
