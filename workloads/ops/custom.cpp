#include "workloads/ops/custom.h"

#include "workloads/ops/family_util.h"

namespace gpucast::wl {
using namespace family;

std::vector<OpDef> OpFamily<CustomOp>::defs() {
  return {{"custom",
           {{"flops", P::number, kReq, "", {}, "floating-point operations", 0, 1e24},
            {"bytes", P::number, kReq, "", {}, "bytes moved through device memory", 0, 1e18},
            {"dtype",
             P::dtype,
             kOpt,
             "fp32",
             {},
             "arithmetic type (tensor-core rate for tf32/fp16/bf16/fp8/int8)"}},
           "any other kernel, by its counts"}};
}

CustomOp OpFamily<CustomOp>::build(std::string_view, const ParamReader& p) {
  CustomOp c;
  c.flops = p.number("flops", c.flops);
  c.bytes = p.number("bytes", c.bytes);
  c.dtype = p.dtype("dtype", c.dtype);
  p.non_negative("flops", c.flops);
  p.non_negative("bytes", c.bytes);
  if (c.flops == 0 && c.bytes == 0) p.fail("flops", "a custom kernel needs flops or bytes > 0");
  return c;
}

ParamList OpFamily<CustomOp>::params(const CustomOp& c) {
  ParamList v{{"flops", ParamValue{c.flops}}, {"bytes", ParamValue{c.bytes}}};
  if (c.dtype != CustomOp{}.dtype) v.emplace_back("dtype", dtype_value(c.dtype));
  return v;
}

std::string OpFamily<CustomOp>::name(const CustomOp&) {
  return "custom";
}

std::string OpFamily<CustomOp>::shape(const CustomOp& c) {
  std::ostringstream s;
  s << c.flops << " FLOP, " << c.bytes << " B " << dt(c.dtype);
  return s.str();
}

double OpFamily<CustomOp>::flops(const CustomOp& c) {
  return c.flops;
}

double OpFamily<CustomOp>::min_bytes(const CustomOp& c) {
  return c.bytes;
}

DataType OpFamily<CustomOp>::compute_dtype(const CustomOp& c) {
  return c.dtype;
}

bool OpFamily<CustomOp>::library_call(const CustomOp&) {
  return false;
}

}  // namespace gpucast::wl
