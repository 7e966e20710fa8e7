#pragma once
// DRAM read bandwidth reached with a given number of bytes outstanding across the GPU: Little's law
// with queueing. The measured bandwidth-versus-bytes-in-flight sweep follows
// BW = BW_sat (1 - exp(-in_flight / (BW_sat L0))) closely (L0: unloaded latency). One home for the
// kernel timer and the op models that weigh a read stream against other DRAM traffic.
#include <algorithm>
#include <cmath>

#include "device/device.h"

namespace gpucast::device {

// Bytes per us read with `in_flight_bytes` outstanding; the sustained rate when nothing limits it (<= 0).
[[nodiscard]] inline double achieved_dram_rate(double in_flight_bytes, const Device& gpu) {
  const double dram = gpu.rates().dram;
  if (in_flight_bytes <= 0) return dram;
  return dram * (1 - std::exp(-in_flight_bytes / (dram * gpu.latency().dram)));
}

// Time DRAM write-backs of `written_back_bytes` (dirty L2 lines a read stream evicts) add to a read
// stream of `read_bytes` running at `read_rate` (bytes per us, its in-flight-limited rate): they share
// the DRAM's queue with the reads, so they cost what reads plus write-backs at the sustained rate
// exceed the reads' own time, and nothing while the reads leave the DRAM that much idle time.
[[nodiscard]] inline double writeback_over_reads_us(double read_bytes, double written_back_bytes,
                                                    double read_rate, const Device& gpu) {
  const double dram = gpu.rates().dram;
  if (written_back_bytes <= 0 || dram <= 0 || read_rate <= 0) return 0;
  return std::max(0.0, (read_bytes + written_back_bytes) / dram - read_bytes / read_rate);
}

}  // namespace gpucast::device
