#include "models/cost/multi_gpu.h"

#include <cmath>

#include "common/errors.h"

namespace gpucast::models::cost {

CostInputs for_gpus(const CostInputs& per_gpu, int gpus, std::optional<Usd> system_price_usd) {
  if (gpus < 1) throw UsageError("a job needs at least one GPU (got " + std::to_string(gpus) + ")");
  if (system_price_usd && (!std::isfinite(*system_price_usd) || *system_price_usd < 0))
    throw UsageError("a system's price must be a finite number of dollars, 0 or more");
  CostInputs in = per_gpu;
  in.owned.purchase_usd = system_price_usd ? *system_price_usd : per_gpu.owned.purchase_usd * gpus;
  in.owned.busy_watts = per_gpu.owned.busy_watts * gpus;
  in.cloud_usd_per_hour = per_gpu.cloud_usd_per_hour * gpus;
  return in;
}

}  // namespace gpucast::models::cost
