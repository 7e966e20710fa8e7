#include "workloads/ops/embedding.h"

#include "workloads/ops/family_util.h"

namespace gpucast::wl {
using namespace family;

std::vector<OpDef> OpFamily<EmbeddingOp>::defs() {
  return {{"embedding",
           {{"vocab", P::integer, kReq, "", {}, "table rows"},
            {"dim", P::integer, kReq, "", {}, "row width"},
            {"tokens", P::integer, kReq, "", {}, "rows gathered"},
            {"dtype", P::dtype, kReq, "", {}, "table type"},
            {"backward",
             P::boolean,
             kOpt,
             "false",
             {},
             "the table's gradient (embedding_dense_backward) instead of the gather"}},
           "row gather from an embedding table"}};
}

EmbeddingOp OpFamily<EmbeddingOp>::build(std::string_view, const ParamReader& p) {
  EmbeddingOp e;
  e.vocab = p.integer("vocab", e.vocab);
  e.dim = p.integer("dim", e.dim);
  e.tokens = p.integer("tokens", e.tokens);
  e.dtype = p.dtype("dtype", e.dtype);
  e.backward = p.boolean("backward", e.backward);
  for (auto [name, v] : {std::pair{"vocab", e.vocab}, {"dim", e.dim}, {"tokens", e.tokens}})
    p.positive(name, static_cast<double>(v));
  p.elements("vocab", {e.vocab, e.dim}, "table");
  p.elements("tokens", {e.tokens, e.dim}, "output");
  return e;
}

ParamList OpFamily<EmbeddingOp>::params(const EmbeddingOp& e) {
  ParamList v{{"vocab", integer(e.vocab)},
              {"dim", integer(e.dim)},
              {"tokens", integer(e.tokens)},
              {"dtype", dtype_value(e.dtype)}};
  if (e.backward) v.emplace_back("backward", ParamValue{true});
  return v;
}

std::string OpFamily<EmbeddingOp>::name(const EmbeddingOp&) {
  return "embedding";
}

std::string OpFamily<EmbeddingOp>::shape(const EmbeddingOp& e) {
  std::ostringstream s;
  s << e.tokens << " of " << e.vocab << "x" << e.dim << " " << dt(e.dtype) << (e.backward ? " backward" : "");
  return s.str();
}

double OpFamily<EmbeddingOp>::flops(const EmbeddingOp&) {
  return 0.0;
}

double OpFamily<EmbeddingOp>::min_bytes(const EmbeddingOp& m) {
  // Backward: the gradient rows read, the whole table's gradient written (zeros where no token).
  if (m.backward)
    return (static_cast<double>(m.tokens) * m.dim + static_cast<double>(m.vocab) * m.dim) *
               bytes_per_element(m.dtype) +
           8.0 * m.tokens;
  return 2.0 * m.tokens * m.dim * bytes_per_element(m.dtype) + 8.0 * m.tokens;  // int64 indices
}

DataType OpFamily<EmbeddingOp>::compute_dtype(const EmbeddingOp& e) {
  return e.dtype;
}

bool OpFamily<EmbeddingOp>::library_call(const EmbeddingOp&) {
  return true;
}

}  // namespace gpucast::wl
