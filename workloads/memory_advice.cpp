#include "workloads/memory_advice.h"

#include <cmath>
#include <cstdio>
#include <limits>

#include "common/errors.h"

namespace gpucast::wl {
namespace {
std::string gb(double bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f GB", bytes / 1e9);
  return buf;
}
double peak_of(const ModelConfig& model, const GenerateOptions& o) {
  try {
    return generate(model, o).memory.peak();
  } catch (const InputError&) {  // a batch the parallel layout cannot split: treat as not fitting
    return std::numeric_limits<double>::infinity();
  }
}
}  // namespace

FitReport check_fit(const ModelConfig& model, const GenerateOptions& o, const MemoryEstimate& m, double capacity) {
  FitReport r;
  r.capacity_bytes = capacity;
  r.peak_bytes = m.peak();
  r.fits = r.peak_bytes <= capacity;
  if (r.fits) return r;
  // Largest batch that fits, by bisection on the memory estimate.
  if (o.batch > 1) {
    long lo = 0, hi = o.batch;
    while (hi - lo > 1) {
      const long mid = (lo + hi) / 2;
      GenerateOptions t = o;
      t.batch = mid;
      (peak_of(model, t) <= capacity ? lo : hi) = mid;
    }
    if (lo >= 1) r.advice.push_back("batch " + std::to_string(lo) + " fits (the largest that does)");
    else r.advice.push_back("not even batch 1 fits at these settings");
  }
  if (bytes_per_element(o.dtype) > 1) {
    const double eight_bit = m.peak() - m.weights * (1 - 1.0 / bytes_per_element(o.dtype));
    r.advice.push_back("8-bit (fp8 / int8) weights: peak " + gb(eight_bit) + (eight_bit <= capacity ? ", fits" : ", still too big"));
  }
  if (o.mode == Mode::train && !o.recompute) {
    GenerateOptions t = o;
    t.recompute = true;
    const double with = peak_of(model, t);
    r.advice.push_back("activation recomputation: peak " + gb(with) + (with <= capacity ? ", fits" : ", still too big"));
  }
  const double usable = capacity - m.workspace;
  const double spread = m.peak() - m.workspace;
  if (usable > 0) {
    const int gpus = static_cast<int>(std::ceil(spread / usable));
    r.advice.push_back("or spread the " + gb(spread) + " of state over at least " + std::to_string(gpus) +
                       " such GPUs (tensor or pipeline parallelism)");
  }
  return r;
}

}  // namespace gpucast::wl
