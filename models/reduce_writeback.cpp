#include "models/reduce_writeback.h"

#include <algorithm>
#include <cmath>

namespace gpucast::models {

double evicted_dirty_bytes(double read_bytes, double launches, const device::Device& gpu) {
  const double dirty = gpu.l2_reuse_bytes();
  if (dirty <= 0 || read_bytes <= 0) return 0;
  launches = std::max(1.0, launches);
  return dirty * (1 - std::exp(-read_bytes * launches / dirty)) / launches;
}

}  // namespace gpucast::models
