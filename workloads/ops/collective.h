#pragma once
// The collective op family: NCCL collectives and point-to-point transfers among the GPUs of a
// system. Seven names in files, one struct: `kind` says which. Timed by sim/collective_timing.h
// (models/collective_model.h), which needs the system the workload runs on.
#include <optional>
#include <string_view>
#include <tuple>

#include "workloads/op_schema.h"

namespace gpucast::wl {

// A NCCL collective (or point-to-point transfer) among `ranks` GPUs of the system the workload runs
// on; the workload describes one rank's work. `bytes` counts the buffer as nccl-tests does: the
// all-reduce buffer, the gathered output of all_gather, the input of reduce_scatter, the whole
// send buffer of all_to_all, the broadcast buffer, the message of send/recv.
enum class CollectiveKind { all_reduce, all_gather, reduce_scatter, all_to_all, broadcast, send, recv };
[[nodiscard]] std::string_view collective_name(CollectiveKind kind);
[[nodiscard]] std::optional<CollectiveKind> parse_collective(std::string_view name);

struct CollectiveOp {
  CollectiveKind kind = CollectiveKind::all_reduce;
  double bytes = 0;
  DataType dtype = DataType::bf16;
  int ranks = 2;
  int stride = 1;  // group members are GPUs r, r + stride, ... (a data-parallel group across TP groups)
  // Every parameter, once: equality and hashing (sim/op_cache_key.h) read this list.
  [[nodiscard]] auto fields() const { return std::tie(kind, bytes, dtype, ranks, stride); }
};
GPUCAST_OP_FAMILY(CollectiveOp);

}  // namespace gpucast::wl
