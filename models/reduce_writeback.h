#pragma once
// The dirty lines a reduction's reads evict from the L2, and the DRAM time their write-backs add.
//
// Reading allocates L2 lines, and the lines a read evicts are dirty: do_bench's flush zeroes a
// 256 MB buffer (triton/testing.py), and in a step the kernels before wrote their outputs. A kernel
// that writes as much as it reads replaces them with its own dirty lines (the same DRAM writes
// either way), but a reduction writes almost nothing: the lines it evicts are written back while it
// streams. Dirty lines fill the L2's reused-set share (device::Device::l2_reuse_bytes) and the
// replacement picks among the lines there, old or just read (the L2 is no LRU under streaming), so
// reading R bytes evicts share * (1 - exp(-R / share)) of them.
//
// The kernel timer charges the write-backs (device::writeback_over_reads_us, KernelPlan::
// dirty_evicted_bytes): they use the DRAM time the reads leave idle and cost only what the reads
// plus the write-backs at the sustained rate exceed the reads' own in-flight-limited stream; a warm
// consumer, whose loads hit the L2, allocates no lines and evicts none.
//
// Evidence, dev split (H100 measured kernel time = do_bench less the launch overhead): reductions
// of 100-300 MB take their reads plus 33-43 MB of writes at the sustained rate (the H100's reused
// share is 0.7 x 50 MB = 35 MB), 32 MB ones plus about 25 MB, 17 MB ones plus about 15 MB. Taking a
// dependent-load chain's issue gaps as overlap too (the write-backs hidden behind the longer of the
// read stream and the chain) left the family's dev MAPE at 7.2-9.8% over the four descriptions,
// against 6.4-7.8% for the read stream alone.
#include "device/device.h"

namespace gpucast::models {

// Bytes of dirty lines that reading `read_bytes` (over all `launches` of the op) evicts, per launch.
[[nodiscard]] double evicted_dirty_bytes(double read_bytes, double launches, const device::Device& gpu);

}  // namespace gpucast::models
