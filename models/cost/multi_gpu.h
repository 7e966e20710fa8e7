#pragma once
// Owning and renting several GPUs that work together (a node, or a job's share of a cluster): the
// purchase, the power drawn while working and the rent per hour scale with the GPU count; the
// utilization and the horizon do not (the GPUs work and idle together).
#include "models/cost/ownership.h"

namespace gpucast::models::cost {

// `per_gpu` describes one GPU with its share of the machine around it; `gpus` >= 1 (UsageError
// otherwise). A published price for the whole system, when given, replaces purchase_usd x gpus.
[[nodiscard]] CostInputs for_gpus(const CostInputs& per_gpu, int gpus,
                                  std::optional<Usd> system_price_usd = {});

}  // namespace gpucast::models::cost
