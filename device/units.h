#pragma once
// Units the simulator computes in, as type aliases so that signatures say what they carry.
// Time in microseconds; rates per microsecond (1 GB/s = 1e3 bytes/us, 1 TFLOP/s = 1e6 FLOP/us).
namespace gpucast::device {

using Microseconds = double;
using Bytes = double;
using Cycles = double;
using BytesPerUs = double;
using FlopsPerUs = double;

}  // namespace gpucast::device
