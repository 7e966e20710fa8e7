#pragma once
// The custom op family: any other kernel, by its counts. Model: models/memory_op_models.h.
#include <tuple>

#include "workloads/op_schema.h"

namespace gpucast::wl {

struct CustomOp {  // anything else, by its counts
  double flops = 0;
  double bytes = 0;
  DataType dtype = DataType::fp32;
  // Every parameter, once: equality and hashing (sim/op_cache_key.h) read this list.
  [[nodiscard]] auto fields() const { return std::tie(flops, bytes, dtype); }
};
GPUCAST_OP_FAMILY(CustomOp);

}  // namespace gpucast::wl
