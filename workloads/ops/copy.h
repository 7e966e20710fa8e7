#pragma once
// The copy op family: a memory copy on the device or across PCIe. Model: models/memory_op_models.h.
#include <string_view>
#include <tuple>

#include "workloads/op_schema.h"

namespace gpucast::wl {

enum class CopyKind { d2d, h2d, d2h };
[[nodiscard]] std::string_view copy_kind_name(CopyKind kind);

struct CopyOp {
  double bytes = 0;
  CopyKind kind = CopyKind::d2d;
  // Every parameter, once: equality and hashing (sim/op_cache_key.h) read this list.
  [[nodiscard]] auto fields() const { return std::tie(bytes, kind); }
};
GPUCAST_OP_FAMILY(CopyOp);

}  // namespace gpucast::wl
