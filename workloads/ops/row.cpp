#include "workloads/ops/row.h"

#include "workloads/ops/family_util.h"

namespace gpucast::wl {
using namespace family;

namespace {
constexpr RowOpKind kKinds[] = {RowOpKind::reduce, RowOpKind::softmax, RowOpKind::layernorm,
                                RowOpKind::rmsnorm, RowOpKind::batchnorm};
}

std::string_view row_op_name(RowOpKind kind) {
  switch (kind) {
    case RowOpKind::softmax:
      return "softmax";
    case RowOpKind::layernorm:
      return "layernorm";
    case RowOpKind::rmsnorm:
      return "rmsnorm";
    case RowOpKind::batchnorm:
      return "batchnorm";
    default:
      return "reduce";
  }
}

namespace {
// reduce and softmax: rows and the length of the last dimension.
OpDef last_dim_def(std::string_view name, std::string_view rows, std::string_view cols, std::string_view what) {
  return {name,
          {{"rows", P::integer, kReq, "", {}, rows}, {"cols", P::integer, kReq, "", {}, cols},
           {"dtype", P::dtype, kReq, "", {}, "type"}},
          what};
}
// layernorm and rmsnorm: rows, the normalized size, and the backward switch.
OpDef norm_def(std::string_view name, std::string_view backward, std::string_view what) {
  return {name,
          {{"rows", P::integer, kReq, "", {}, "rows (tokens)"},
           {"hidden", P::integer, kReq, "", {}, "normalized size"},
           {"dtype", P::dtype, kReq, "", {}, "type"},
           {"backward", P::boolean, kOpt, "false", {}, backward}},
          what};
}
// The file key of a row op's length: the norms' normalized size, batchnorm's channels, else cols.
const char* length_key(const RowOp& r) {
  return r.is_norm() ? "hidden" : r.kind == RowOpKind::batchnorm ? "channels" : "cols";
}
}  // namespace

std::vector<OpDef> OpFamily<RowOp>::defs() {
  return {last_dim_def("reduce", "independent reductions", "elements reduced per row",
                       "sum over the last dimension"),
          last_dim_def("softmax", "rows", "softmax length", "softmax over the last dimension"),
          norm_def("layernorm", "the backward pass (dX, dweight, dbias) instead of the forward",
                   "layer normalization with weight and bias"),
          norm_def("rmsnorm", "the backward pass (dX, dweight) instead of the forward",
                   "RMS normalization with weight"),
          {"batchnorm",
           {{"rows", P::integer, kReq, "", {}, "positions (N*H*W)"},
            {"channels", P::integer, kReq, "", {}, "channels (the contiguous dimension)"},
            {"dtype", P::dtype, kReq, "", {}, "type"},
            {"training",
             P::boolean,
             kOpt,
             "false",
             {},
             "batch statistics (training mode) instead of running ones"},
            {"backward", P::boolean, kOpt, "false", {}, "the training backward pass (dX, dweight, dbias)"}},
           "batch normalization of a channels-last activation: inference (running statistics), training, or "
           "its backward"}};
}

RowOp OpFamily<RowOp>::build(std::string_view name, const ParamReader& p) {
  RowOp r;
  for (auto k : kKinds)
    if (row_op_name(k) == name) r.kind = k;
  const char* length = length_key(r);
  r.rows = p.integer("rows", r.rows);
  r.cols = p.integer(length, r.cols);
  r.dtype = p.dtype("dtype", r.dtype);
  if (r.is_norm() || r.kind == RowOpKind::batchnorm) r.backward = p.boolean("backward", r.backward);
  if (r.kind == RowOpKind::batchnorm) r.training = r.backward || p.boolean("training", r.training);
  p.positive("rows", static_cast<double>(r.rows));
  p.positive(length, static_cast<double>(r.cols));
  p.elements("rows", {r.rows, r.cols}, "tensor");
  return r;
}

ParamList OpFamily<RowOp>::params(const RowOp& r) {
  ParamList v{{"rows", integer(r.rows)},
              {length_key(r), integer(r.cols)},
              {"dtype", dtype_value(r.dtype)}};
  if (r.training && !r.backward) v.emplace_back("training", ParamValue{true});
  if (r.backward) v.emplace_back("backward", ParamValue{true});
  return v;
}

std::string OpFamily<RowOp>::name(const RowOp& r) {
  return std::string(row_op_name(r.kind));
}

std::string OpFamily<RowOp>::shape(const RowOp& r) {
  std::ostringstream s;
  s << r.rows << "x" << r.cols << " " << dt(r.dtype)
    << (r.backward   ? " backward"
        : r.training ? " training"
                     : "");
  return s.str();
}

double OpFamily<RowOp>::flops(const RowOp& r) {
  // reduce: 1 add; softmax: max, sub, exp, sum, div ~5; layernorm ~8; rmsnorm ~4; batchnorm: sub,
  // mul, fma ~4 per element
  const double per = r.kind == RowOpKind::reduce      ? 1
                     : r.kind == RowOpKind::softmax   ? 5
                     : r.kind == RowOpKind::layernorm ? 8
                                                      : 4;
  return (r.backward ? 2 : 1) * per * r.rows * r.cols;  // backward: about twice the forward's arithmetic
}

double OpFamily<RowOp>::min_bytes(const RowOp& r) {
  const double e = bytes_per_element(r.dtype);
  const double in = e * r.rows * r.cols;
  // Norm backward reads dY and X, writes dX; the weight (and bias) gradients are row-sized.
  if (r.backward) return 3 * in + (r.kind == RowOpKind::layernorm ? 3 : 2) * e * r.cols;
  switch (r.kind) {
    case RowOpKind::reduce:
      return in + e * r.rows;
    case RowOpKind::softmax:
      return 2 * in;
    case RowOpKind::layernorm:
      return 2 * in + 2 * e * r.cols;
    case RowOpKind::batchnorm:  // mean, variance, weight and bias per channel, fp32
      return 2 * in + 4 * 4.0 * r.cols;
    default:
      return 2 * in + e * r.cols;
  }
}

DataType OpFamily<RowOp>::compute_dtype(const RowOp&) {
  return DataType::fp32;
}

// The norms go through a library-like dispatch (apex-style fused kernels); reduce and softmax do not.
bool OpFamily<RowOp>::library_call(const RowOp& r) {
  return r.is_norm();
}

}  // namespace gpucast::wl
