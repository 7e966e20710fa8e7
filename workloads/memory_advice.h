#pragma once
// Whether a generated run fits in a GPU's memory, by how much it misses, and what would make it
// fit (a smaller batch, 8-bit weights, recomputation, more GPUs).
#include <string>
#include <vector>

#include "workloads/generate.h"

namespace gpucast::wl {

struct FitReport {
  double capacity_bytes = 0;
  double peak_bytes = 0;
  bool fits = false;
  std::vector<std::string> advice;  // only when it does not fit
};

[[nodiscard]] FitReport check_fit(const ModelConfig& model, const GenerateOptions& options, const MemoryEstimate& m,
                                  double capacity_bytes);

}  // namespace gpucast::wl
