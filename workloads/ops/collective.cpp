#include "workloads/ops/collective.h"

#include <cmath>
#include <iterator>

#include "workloads/ops/family_util.h"

namespace gpucast::wl {
using namespace family;

namespace {
constexpr CollectiveKind kKinds[] = {
    CollectiveKind::all_reduce, CollectiveKind::all_gather, CollectiveKind::reduce_scatter,
    CollectiveKind::all_to_all, CollectiveKind::broadcast,  CollectiveKind::send,
    CollectiveKind::recv};

std::string_view what(CollectiveKind kind) {
  switch (kind) {
    case CollectiveKind::all_gather:
      return "concatenate every rank's part; bytes = the gathered output";
    case CollectiveKind::reduce_scatter:
      return "sum across ranks, each rank keeps 1/ranks; bytes = the input";
    case CollectiveKind::all_to_all:
      return "every rank sends a 1/ranks part to every other; bytes = one rank's send buffer";
    case CollectiveKind::broadcast:
      return "one rank's buffer to all";
    case CollectiveKind::send:
      return "point-to-point send to the next rank (pipeline stages)";
    case CollectiveKind::recv:
      return "point-to-point receive from the previous rank";
    default:
      return "sum a buffer across ranks; every rank gets the result";
  }
}
}  // namespace

std::string_view collective_name(CollectiveKind kind) {
  switch (kind) {
    case CollectiveKind::all_gather:
      return "all_gather";
    case CollectiveKind::reduce_scatter:
      return "reduce_scatter";
    case CollectiveKind::all_to_all:
      return "all_to_all";
    case CollectiveKind::broadcast:
      return "broadcast";
    case CollectiveKind::send:
      return "send";
    case CollectiveKind::recv:
      return "recv";
    default:
      return "all_reduce";
  }
}

std::optional<CollectiveKind> parse_collective(std::string_view name) {
  for (auto k : kKinds)
    if (collective_name(k) == name) return k;
  return std::nullopt;
}

std::vector<OpDef> OpFamily<CollectiveOp>::defs() {
  // The descriptions name the system a collective needs; the text lives in static storage because
  // OpDef holds views.
  static const std::vector<std::string> kDescriptions = [] {
    std::vector<std::string> out;
    for (auto k : kKinds) out.push_back(std::string(what(k)) + " (needs a system: --gpus NxGPU or --system)");
    return out;
  }();
  std::vector<OpDef> defs;
  for (size_t i = 0; i < std::size(kKinds); ++i)
    defs.push_back(
        {collective_name(kKinds[i]),
         {{"bytes", P::number, kReq, "", {}, "buffer size as nccl-tests counts it"},
          {"dtype", P::dtype, kOpt, "bf16", {}, "element type (reductions)"},
          {"ranks", P::integer, kReq, "", {}, "GPUs in the group (placed on the system's GPUs in order)"},
          {"stride",
           P::integer,
           kOpt,
           "1",
           {},
           "distance between the group's GPUs (a DP group across TP groups)"}},
         kDescriptions[i]});
  return defs;
}

CollectiveOp OpFamily<CollectiveOp>::build(std::string_view name, const ParamReader& p) {
  CollectiveOp c;
  c.kind = parse_collective(name).value_or(c.kind);
  c.bytes = p.number("bytes", c.bytes);
  c.dtype = p.dtype("dtype", c.dtype);
  const std::int64_t ranks = p.integer("ranks", 0);
  p.positive("bytes", c.bytes);
  if (!std::isfinite(c.bytes) || c.bytes > 1e15) p.fail("bytes", "must be finite and at most 1e15");
  if (ranks < 1 || ranks > 1000000) p.fail("ranks", "must be between 1 and 1000000");
  if ((c.kind == CollectiveKind::send || c.kind == CollectiveKind::recv) && ranks < 2)
    p.fail("ranks", "send and recv need ranks >= 2 (the two stages)");
  c.ranks = static_cast<int>(ranks);
  const std::int64_t stride = p.integer("stride", c.stride);
  if (stride < 1 || stride > 1000000) p.fail("stride", "must be between 1 and 1000000");
  c.stride = static_cast<int>(stride);
  return c;
}

ParamList OpFamily<CollectiveOp>::params(const CollectiveOp& c) {
  ParamList v{{"bytes", ParamValue{c.bytes}}};
  if (c.dtype != CollectiveOp{}.dtype) v.emplace_back("dtype", dtype_value(c.dtype));
  v.emplace_back("ranks", integer(c.ranks));
  if (c.stride != 1) v.emplace_back("stride", integer(c.stride));
  return v;
}

std::string OpFamily<CollectiveOp>::name(const CollectiveOp& c) {
  return std::string(collective_name(c.kind));
}

std::string OpFamily<CollectiveOp>::shape(const CollectiveOp& c) {
  std::ostringstream s;
  s << static_cast<long long>(c.bytes) << " B " << dt(c.dtype) << " x" << c.ranks << " ranks";
  if (c.stride != 1) s << " stride " << c.stride;
  return s.str();
}

double OpFamily<CollectiveOp>::flops(const CollectiveOp&) {
  return 0.0;
}  // reductions are not model FLOPs

// Read the buffer once (the model adds the rest).
double OpFamily<CollectiveOp>::min_bytes(const CollectiveOp& c) {
  return c.bytes;
}

DataType OpFamily<CollectiveOp>::compute_dtype(const CollectiveOp& c) {
  return c.dtype;
}

bool OpFamily<CollectiveOp>::library_call(const CollectiveOp&) {
  return false;
}

}  // namespace gpucast::wl
