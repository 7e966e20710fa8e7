#include "workloads/ops/elementwise.h"

#include "workloads/ops/family_util.h"

namespace gpucast::wl {
using namespace family;

std::vector<OpDef> OpFamily<ElementwiseOp>::defs() {
  return {
      {"elementwise",
       {{"elements", P::integer, kReq, "", {}, "elements per tensor"},
        {"dtype", P::dtype, kReq, "", {}, "input type"},
        {"out_dtype", P::dtype, kOpt, "= dtype", {}, "output type"},
        {"inputs", P::integer, kOpt, "1", {}, "input tensors", 0, 64},
        {"outputs", P::integer, kOpt, "1", {}, "output tensors", 1, 64},
        {"flops_per_element", P::number, kOpt, "1", {}, "arithmetic per element", 0, 1e6},
        {"contiguous",
         P::boolean,
         kOpt,
         "true",
         {},
         "false for strided views (transposes, slices): a non-vectorized kernel"},
        {"transposed_inputs",
         P::integer,
         kOpt,
         "0",
         {},
         "inputs read across their contiguous dimension (x.t().contiguous()): one 32-byte sector per "
         "element; "
         "implies contiguous = false",
         0,
         64},
        {"broadcast_inputs",
         P::integer,
         kOpt,
         "0",
         {},
         "further inputs read through a broadcast (x * rstd, rstd [rows, 1]): their bytes come from the L2, "
         "but a strided kernel computes an offset and loads one per element; implies contiguous = false",
         0,
         64},
        {"mixed_types",
         P::boolean,
         kOpt,
         "false",
         {},
         "inputs of different types (an fp32 residual plus a bf16 branch): each element converted as it is "
         "loaded, PyTorch's dynamic-cast kernel; dtype is the widest input's"},
        {"index_dims",
         P::integer,
         kOpt,
         "0",
         {},
         "a strided kernel's index dimensions after PyTorch merges contiguous ones (0: not known)",
         0,
         25}},
       "pointwise map over tensors of equal size (add, mul, GELU, casts, ...)"}};
}

ElementwiseOp OpFamily<ElementwiseOp>::build(std::string_view, const ParamReader& p) {
  ElementwiseOp e;
  e.elements = p.integer("elements", e.elements);
  e.dtype = p.dtype("dtype", e.dtype);
  e.out_dtype = p.dtype("out_dtype", e.dtype);
  e.inputs = static_cast<int>(p.integer("inputs", e.inputs));
  e.outputs = static_cast<int>(p.integer("outputs", e.outputs));
  e.flops_per_element = p.number("flops_per_element", e.flops_per_element);
  e.contiguous = p.boolean("contiguous", e.contiguous);
  e.transposed_inputs = static_cast<int>(p.integer("transposed_inputs", e.transposed_inputs));
  if (e.transposed_inputs > e.inputs)
    p.fail("transposed_inputs", "is " + std::to_string(e.transposed_inputs) + ", more than the op's " +
                                    std::to_string(e.inputs) + " inputs");
  e.broadcast_inputs = static_cast<int>(p.integer("broadcast_inputs", e.broadcast_inputs));
  e.mixed_types = p.boolean("mixed_types", e.mixed_types);
  e.index_dims = static_cast<int>(p.integer("index_dims", e.index_dims));
  if (e.transposed_inputs > 0 || e.broadcast_inputs > 0) e.contiguous = false;
  p.positive("elements", static_cast<double>(e.elements));
  p.elements("elements", {e.elements}, "tensor");
  p.non_negative("inputs", e.inputs);
  p.positive("outputs", e.outputs);
  p.non_negative("flops_per_element", e.flops_per_element);
  return e;
}

ParamList OpFamily<ElementwiseOp>::params(const ElementwiseOp& e) {
  ParamList v{{"elements", integer(e.elements)}, {"dtype", dtype_value(e.dtype)}};
  if (e.out_dtype != e.dtype) v.emplace_back("out_dtype", dtype_value(e.out_dtype));
  if (e.inputs != 1) v.emplace_back("inputs", integer(e.inputs));
  if (e.outputs != 1) v.emplace_back("outputs", integer(e.outputs));
  if (e.flops_per_element != 1) v.emplace_back("flops_per_element", ParamValue{e.flops_per_element});
  if (!e.contiguous) v.emplace_back("contiguous", ParamValue{false});
  if (e.transposed_inputs != 0) v.emplace_back("transposed_inputs", integer(e.transposed_inputs));
  if (e.broadcast_inputs != 0) v.emplace_back("broadcast_inputs", integer(e.broadcast_inputs));
  if (e.mixed_types) v.emplace_back("mixed_types", ParamValue{true});
  if (e.index_dims != 0) v.emplace_back("index_dims", integer(e.index_dims));
  return v;
}

std::string OpFamily<ElementwiseOp>::name(const ElementwiseOp&) {
  return "elementwise";
}

std::string OpFamily<ElementwiseOp>::shape(const ElementwiseOp& e) {
  std::ostringstream s;
  s << e.elements << " " << dt(e.dtype);
  if (e.out_dtype != e.dtype) s << "->" << dt(e.out_dtype);
  if (e.inputs != 1 || e.outputs != 1) s << " " << e.inputs << "in/" << e.outputs << "out";
  if (e.broadcast_inputs > 0) s << " +" << e.broadcast_inputs << " broadcast";
  if (e.transposed_inputs > 0)
    s << " transposed";
  else if (!e.contiguous)
    s << " strided";
  return s.str();
}

double OpFamily<ElementwiseOp>::flops(const ElementwiseOp& e) {
  return e.flops_per_element * e.elements;
}

double OpFamily<ElementwiseOp>::min_bytes(const ElementwiseOp& e) {
  return static_cast<double>(e.elements) *
         (e.inputs * bytes_per_element(e.dtype) + e.outputs * bytes_per_element(e.out_dtype));
}

DataType OpFamily<ElementwiseOp>::compute_dtype(const ElementwiseOp&) {
  return DataType::fp32;
}

bool OpFamily<ElementwiseOp>::library_call(const ElementwiseOp&) {
  return false;
}

}  // namespace gpucast::wl
