#include "models/l2_writeback.h"

#include <algorithm>
#include <cmath>

namespace gpucast::models {

double evicted_dirty_bytes(double read_bytes, double launches, const device::Device& gpu) {
  const double dirty = gpu.l2_dirty_bytes();
  const double lines = gpu.l2_lines_bytes();
  if (dirty <= 0 || read_bytes <= 0) return 0;
  launches = std::max(1.0, launches);
  return dirty * (1 - std::exp(-read_bytes * launches / lines)) / launches;
}

double evicted_dirty_bytes_beyond_writes(double read_bytes, double write_bytes, const device::Device& gpu) {
  if (read_bytes <= 0) return 0;
  write_bytes = std::max(0.0, write_bytes);
  return std::max(
      0.0, evicted_dirty_bytes(read_bytes + write_bytes, 1, gpu) - evicted_dirty_bytes(write_bytes, 1, gpu));
}

}  // namespace gpucast::models
