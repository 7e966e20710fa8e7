#include "workloads/ops/attention.h"

#include "workloads/ops/family_util.h"

namespace gpucast::wl {
using namespace family;

namespace {
constexpr AttentionBackend kBackends[] = {AttentionBackend::automatic, AttentionBackend::flash2,
                                          AttentionBackend::flash3,    AttentionBackend::cudnn,
                                          AttentionBackend::efficient, AttentionBackend::math};

// Average fraction of the score matrix a causal mask keeps (diagonal included).
double causal_fraction(Count seq_q, Count seq_kv) {
  if (seq_q <= 0 || seq_kv <= 0) return 1.0;
  // Query i (aligned to the end of the keys) sees keys [0, seq_kv - seq_q + i].
  const double q = static_cast<double>(seq_q);
  const double kv = static_cast<double>(seq_kv);
  const double kept = q * (kv - q) + q * (q + 1) / 2;
  return kept / (q * kv);
}
}  // namespace

std::string_view attention_backend_name(AttentionBackend b) {
  switch (b) {
    case AttentionBackend::flash2:
      return "flash2";
    case AttentionBackend::flash3:
      return "flash3";
    case AttentionBackend::cudnn:
      return "cudnn";
    case AttentionBackend::efficient:
      return "efficient";
    case AttentionBackend::math:
      return "math";
    default:
      return "auto";
  }
}

std::vector<OpDef> OpFamily<AttentionOp>::defs() {
  return {
      {"attention",
       {{"batch", P::integer, kReq, "", {}, "sequences"},
        {"heads", P::integer, kReq, "", {}, "query heads"},
        {"kv_heads", P::integer, kOpt, "= heads", {}, "key/value heads (grouped-query attention)"},
        {"seq_q", P::integer, kReq, "", {}, "query length"},
        {"seq_kv", P::integer, kReq, "", {}, "key/value length"},
        {"head_dim", P::integer, kReq, "", {}, "head dimension"},
        {"causal", P::boolean, kOpt, "false", {}, "causal mask"},
        {"dtype", P::dtype, kReq, "", {}, "operand type"},
        {"backward", P::boolean, kOpt, "false", {}, "the backward pass (dQ, dK, dV) instead of the forward"},
        {"backend",
         P::choice,
         kOpt,
         "auto",
         {"auto", "flash2", "flash3", "cudnn", "efficient", "math"},
         "PyTorch SDPA kernel family; auto follows PyTorch's choice for the GPU's architecture"}},
       "fused (flash-style) scaled-dot-product attention"}};
}

AttentionOp OpFamily<AttentionOp>::build(std::string_view, const ParamReader& p) {
  AttentionOp a;
  a.batch = p.integer("batch", a.batch);
  a.heads = p.integer("heads", a.heads);
  a.kv_heads = p.integer("kv_heads", a.heads);
  a.seq_q = p.integer("seq_q", a.seq_q);
  a.seq_kv = p.integer("seq_kv", a.seq_kv);
  a.head_dim = p.integer("head_dim", a.head_dim);
  a.causal = p.boolean("causal", a.causal);
  a.dtype = p.dtype("dtype", a.dtype);
  a.backward = p.boolean("backward", a.backward);
  const std::string backend = p.text("backend", std::string(attention_backend_name(a.backend)));
  for (auto b : kBackends)
    if (attention_backend_name(b) == backend) a.backend = b;
  for (auto [name, v] : {std::pair{"batch", a.batch},
                         {"heads", a.heads},
                         {"kv_heads", a.kv_heads},
                         {"seq_q", a.seq_q},
                         {"seq_kv", a.seq_kv},
                         {"head_dim", a.head_dim}})
    p.positive(name, static_cast<double>(v));
  if (a.heads % a.kv_heads != 0) p.fail("kv_heads", "heads must be a multiple of kv_heads");
  p.elements("seq_q", {a.batch, a.heads, a.seq_q, a.head_dim}, "query");
  p.elements("seq_kv", {a.batch, a.kv_heads, a.seq_kv, a.head_dim}, "key");
  p.elements("seq_kv", {a.batch, a.heads, a.seq_q, a.seq_kv}, "score matrix");
  return a;
}

ParamList OpFamily<AttentionOp>::params(const AttentionOp& a) {
  ParamList v{{"batch", integer(a.batch)}, {"heads", integer(a.heads)}};
  if (a.kv_heads != a.heads) v.emplace_back("kv_heads", integer(a.kv_heads));
  v.insert(v.end(),
           {{"seq_q", integer(a.seq_q)}, {"seq_kv", integer(a.seq_kv)}, {"head_dim", integer(a.head_dim)}});
  if (a.causal) v.emplace_back("causal", ParamValue{true});
  v.emplace_back("dtype", dtype_value(a.dtype));
  if (a.backward) v.emplace_back("backward", ParamValue{true});
  if (a.backend != AttentionBackend::automatic)
    v.emplace_back("backend", ParamValue{std::string(attention_backend_name(a.backend))});
  return v;
}

std::string OpFamily<AttentionOp>::name(const AttentionOp&) {
  return "attention";
}

std::string OpFamily<AttentionOp>::shape(const AttentionOp& a) {
  std::ostringstream s;
  s << "b" << a.batch << " h" << a.heads;
  if (a.kv_heads != a.heads) s << "/" << a.kv_heads;
  s << " q" << a.seq_q << " kv" << a.seq_kv << " d" << a.head_dim << (a.causal ? " causal" : "") << " "
    << dt(a.dtype) << (a.backward ? " bwd" : "");
  if (a.backend != AttentionBackend::automatic) s << " " << attention_backend_name(a.backend);
  return s.str();
}

double OpFamily<AttentionOp>::flops(const AttentionOp& a) {
  const double keep = a.causal ? causal_fraction(a.seq_q, a.seq_kv) : 1.0;
  // Backward: dV, dP, dQ, dK products plus the recomputed scores, 2.5x the forward.
  return (a.backward ? 2.5 : 1.0) * 4.0 * a.batch * a.heads * a.seq_q * a.seq_kv * a.head_dim * keep;
}

double OpFamily<AttentionOp>::min_bytes(const AttentionOp& a) {
  const double e = bytes_per_element(a.dtype);
  const double q_o = 2.0 * a.heads * a.seq_q, k_v = 2.0 * a.kv_heads * a.seq_kv;
  // Backward reads Q, K, V, O, dO and writes dQ, dK, dV.
  return e * a.batch * a.head_dim * (a.backward ? 2 * q_o + 2 * k_v : q_o + k_v);
}

DataType OpFamily<AttentionOp>::compute_dtype(const AttentionOp& a) {
  return a.dtype;
}

bool OpFamily<AttentionOp>::library_call(const AttentionOp&) {
  return true;
}  // SDPA dispatch

}  // namespace gpucast::wl
