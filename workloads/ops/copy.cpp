#include "workloads/ops/copy.h"

#include "workloads/ops/family_util.h"

namespace gpucast::wl {
using namespace family;

std::string_view copy_kind_name(CopyKind kind) {
  switch (kind) {
    case CopyKind::h2d:
      return "h2d";
    case CopyKind::d2h:
      return "d2h";
    default:
      return "d2d";
  }
}

std::vector<OpDef> OpFamily<CopyOp>::defs() {
  return {{"copy",
           {{"bytes", P::number, kReq, "", {}, "bytes copied", 1, 1e18},
            {"kind",
             P::choice,
             kOpt,
             "d2d",
             {"d2d", "h2d", "d2h"},
             "device-device, or across PCIe (pinned host memory)"}},
           "memory copy"}};
}

CopyOp OpFamily<CopyOp>::build(std::string_view, const ParamReader& p) {
  CopyOp c;
  c.bytes = p.number("bytes", c.bytes);
  const std::string kind = p.text("kind", std::string(copy_kind_name(c.kind)));
  for (auto k : {CopyKind::d2d, CopyKind::h2d, CopyKind::d2h})
    if (copy_kind_name(k) == kind) c.kind = k;
  p.positive("bytes", c.bytes);
  return c;
}

ParamList OpFamily<CopyOp>::params(const CopyOp& c) {
  ParamList v{{"bytes", ParamValue{c.bytes}}};
  if (c.kind != CopyKind::d2d) v.emplace_back("kind", ParamValue{std::string(copy_kind_name(c.kind))});
  return v;
}

std::string OpFamily<CopyOp>::name(const CopyOp&) {
  return "copy";
}

std::string OpFamily<CopyOp>::shape(const CopyOp& c) {
  std::ostringstream s;
  s << static_cast<long long>(c.bytes) << " B " << copy_kind_name(c.kind);
  return s.str();
}

double OpFamily<CopyOp>::flops(const CopyOp&) {
  return 0.0;
}

double OpFamily<CopyOp>::min_bytes(const CopyOp& c) {
  return c.kind == CopyKind::d2d ? 2 * c.bytes : c.bytes;
}

DataType OpFamily<CopyOp>::compute_dtype(const CopyOp&) {
  return DataType::fp32;
}

bool OpFamily<CopyOp>::library_call(const CopyOp&) {
  return false;
}

}  // namespace gpucast::wl
