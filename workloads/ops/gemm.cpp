#include "workloads/ops/gemm.h"

#include "workloads/ops/family_util.h"

namespace gpucast::wl {
using namespace family;

std::vector<OpDef> OpFamily<GemmOp>::defs() {
  return {
      {"gemm",
       {{"m", P::integer, kReq, "", {}, "rows of A and C"},
        {"n", P::integer, kReq, "", {}, "columns of B and C"},
        {"k", P::integer, kReq, "", {}, "inner dimension"},
        {"batch", P::integer, kOpt, "1", {}, "independent products (batched GEMM)"},
        {"dtype", P::dtype, kReq, "", {}, "operand type"},
        {"out_dtype", P::dtype, kOpt, "= dtype", {}, "output type"},
        {"transpose_a",
         P::boolean,
         kOpt,
         "false",
         {},
         "A stored transposed (leading dimension m, as in g^T @ x)"},
        {"transpose_b",
         P::boolean,
         kOpt,
         "false",
         {},
         "B stored transposed (leading dimension k, as in x @ W^T)"}},
       "C[m,n] = A[m,k] B[k,n], batched if batch > 1; transpose_a/transpose_b give the operands' layouts"}};
}

GemmOp OpFamily<GemmOp>::build(std::string_view, const ParamReader& p) {
  GemmOp g;
  g.m = p.integer("m", g.m);
  g.n = p.integer("n", g.n);
  g.k = p.integer("k", g.k);
  g.batch = p.integer("batch", g.batch);
  g.dtype = p.dtype("dtype", g.dtype);
  g.out_dtype = p.dtype("out_dtype", g.dtype);
  g.transpose_a = p.boolean("transpose_a", g.transpose_a);
  g.transpose_b = p.boolean("transpose_b", g.transpose_b);
  for (auto [name, v] : {std::pair{"m", g.m}, {"n", g.n}, {"k", g.k}, {"batch", g.batch}})
    p.positive(name, static_cast<double>(v));
  p.elements("m", {g.batch, g.m, g.k}, "A operand");
  p.elements("n", {g.batch, g.k, g.n}, "B operand");
  p.elements("m", {g.batch, g.m, g.n}, "output");
  return g;
}

ParamList OpFamily<GemmOp>::params(const GemmOp& g) {
  ParamList v{{"m", integer(g.m)}, {"n", integer(g.n)}, {"k", integer(g.k)}};
  if (g.batch != 1) v.emplace_back("batch", integer(g.batch));
  v.emplace_back("dtype", dtype_value(g.dtype));
  if (g.out_dtype != g.dtype) v.emplace_back("out_dtype", dtype_value(g.out_dtype));
  if (g.transpose_a) v.emplace_back("transpose_a", ParamValue{true});
  if (g.transpose_b) v.emplace_back("transpose_b", ParamValue{true});
  return v;
}

std::string OpFamily<GemmOp>::name(const GemmOp&) {
  return "gemm";
}

std::string OpFamily<GemmOp>::shape(const GemmOp& g) {
  std::ostringstream s;
  s << g.m << "x" << g.n << "x" << g.k;
  if (g.batch > 1) s << " x" << g.batch;
  s << " " << dt(g.dtype);
  if (g.out_dtype != g.dtype) s << "->" << dt(g.out_dtype);
  if (g.transpose_a) s << " A^T";  // the operands stored transposed
  if (g.transpose_b) s << " B^T";
  return s.str();
}

double OpFamily<GemmOp>::flops(const GemmOp& g) {
  return 2.0 * g.m * g.n * g.k * g.batch;
}

double OpFamily<GemmOp>::min_bytes(const GemmOp& g) {
  return static_cast<double>(g.batch) *
         ((g.m * g.k + g.k * g.n) * static_cast<double>(bytes_per_element(g.dtype)) +
          static_cast<double>(g.m * g.n) * bytes_per_element(g.out_dtype));
}

DataType OpFamily<GemmOp>::compute_dtype(const GemmOp& g) {
  return g.dtype;
}

bool OpFamily<GemmOp>::library_call(const GemmOp&) {
  return true;
}  // cuBLAS

}  // namespace gpucast::wl
