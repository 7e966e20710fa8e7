#pragma once
// The dirty lines a kernel's reads evict from the L2, and the DRAM time their write-backs add.
//
// Reading allocates L2 lines, and the lines a read evicts are dirty: do_bench's flush zeroes a
// 256 MB buffer (triton/testing.py), and in a step the kernels before wrote their outputs. A kernel
// that writes as much as it reads replaces them with its own dirty lines (the same DRAM writes
// either way), but a reduction or a weight-streaming GEMM writes almost nothing: the lines it evicts
// are written back while it streams. Dirty lines fill the L2's reused-set share
// (device::Device::l2_reuse_bytes) and the replacement picks among the lines there, old or just
// read (the L2 is no LRU under streaming), so reading R bytes evicts share * (1 - exp(-R / share)).
//
// The kernel timer charges the write-backs (device::writeback_over_reads_us, KernelPlan::
// dirty_evicted_bytes): they use the DRAM time the reads leave idle and cost only what the reads
// plus the write-backs at the sustained rate exceed the read stream as long as whatever holds it
// back makes it (bytes in flight, the access pattern, one SM's miss limit); a warm consumer, whose
// loads hit the L2, allocates no lines and evicts none.
//
// Evidence, dev split (H100 measured kernel time = do_bench less the launch overhead): reductions
// of 100-300 MB take their reads plus 33-43 MB of writes at the sustained rate (the H100's reused
// share is 0.7 x 50 MB = 35 MB), 32 MB ones plus about 25 MB, 17 MB ones plus about 15 MB. Taking a
// dependent-load chain's issue gaps as overlap too (the write-backs hidden behind the longer of the
// read stream and the chain) left the family's dev MAPE at 7.2-9.8% over the four descriptions,
// against 6.4-7.8% for the read stream alone. Weight-streaming GEMMs (dev and calibration cases of
// validation/runs/h100-sxm/flush-gap/, profiled after the flush): 50, 118 and 471 MB of weights
// took 25.5, 51.6 and 167.1 us, their reads plus the evicted share at the sustained rate 25.2, 49.8
// and 165.5 us, 5.7-10 us longer than the same kernels warm.
#include "device/device.h"

namespace gpucast::models {

// Bytes of dirty lines that reading `read_bytes` (over all `launches` of the op) evicts, per launch.
[[nodiscard]] double evicted_dirty_bytes(double read_bytes, double launches, const device::Device& gpu);

// The same for a kernel that also writes `write_bytes`, whose own dirty lines take the place of
// those they evict (their write-backs are its DRAM writes): the lines its reads and writes evict
// beyond what its writes alone would, over one launch. Whole, per launch, not per block.
[[nodiscard]] double evicted_dirty_bytes_beyond_writes(double read_bytes, double write_bytes,
                                                       const device::Device& gpu);

}  // namespace gpucast::models
