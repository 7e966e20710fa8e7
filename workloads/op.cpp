#include "workloads/op.h"

#include <sstream>

namespace gpucast::wl {
namespace {
template <class... Ts>
struct overloaded : Ts... {
  using Ts::operator()...;
};
template <class... Ts>
overloaded(Ts...) -> overloaded<Ts...>;

std::string dt(DataType t) { return std::string(to_string(t)); }

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

std::string_view copy_kind_name(CopyKind kind) {
  switch (kind) {
    case CopyKind::h2d: return "h2d";
    case CopyKind::d2h: return "d2h";
    default: return "d2d";
  }
}

std::string_view attention_backend_name(AttentionBackend b) {
  switch (b) {
    case AttentionBackend::flash2: return "flash2";
    case AttentionBackend::flash3: return "flash3";
    case AttentionBackend::cudnn: return "cudnn";
    case AttentionBackend::efficient: return "efficient";
    case AttentionBackend::math: return "math";
    default: return "auto";
  }
}

std::string_view row_op_name(RowOpKind kind) {
  switch (kind) {
    case RowOpKind::softmax: return "softmax";
    case RowOpKind::layernorm: return "layernorm";
    case RowOpKind::rmsnorm: return "rmsnorm";
    default: return "reduce";
  }
}

std::string_view collective_name(CollectiveKind kind) {
  switch (kind) {
    case CollectiveKind::all_gather: return "all_gather";
    case CollectiveKind::reduce_scatter: return "reduce_scatter";
    case CollectiveKind::all_to_all: return "all_to_all";
    case CollectiveKind::broadcast: return "broadcast";
    case CollectiveKind::send: return "send";
    case CollectiveKind::recv: return "recv";
    default: return "all_reduce";
  }
}

std::optional<CollectiveKind> parse_collective(std::string_view name) {
  for (auto k : {CollectiveKind::all_reduce, CollectiveKind::all_gather, CollectiveKind::reduce_scatter,
                 CollectiveKind::all_to_all, CollectiveKind::broadcast, CollectiveKind::send, CollectiveKind::recv})
    if (collective_name(k) == name) return k;
  return std::nullopt;
}

std::string op_name(const Op& op) {
  return std::visit(overloaded{[](const GemmOp&) { return std::string("gemm"); },
                               [](const AttentionOp&) { return std::string("attention"); },
                               [](const Conv2dOp&) { return std::string("conv2d"); },
                               [](const ElementwiseOp&) { return std::string("elementwise"); },
                               [](const RowOp& r) { return std::string(row_op_name(r.kind)); },
                               [](const EmbeddingOp&) { return std::string("embedding"); },
                               [](const CopyOp&) { return std::string("copy"); },
                               [](const CustomOp&) { return std::string("custom"); },
                               [](const CollectiveOp& c) { return std::string(collective_name(c.kind)); },
                               [](const TracedOp&) { return std::string("traced"); }},
                    op);
}

std::string op_shape(const Op& op) {
  std::ostringstream s;
  std::visit(overloaded{
                 [&](const GemmOp& g) {
                   s << g.m << "x" << g.n << "x" << g.k;
                   if (g.batch > 1) s << " x" << g.batch;
                   s << " " << dt(g.dtype);
                   if (g.out_dtype != g.dtype) s << "->" << dt(g.out_dtype);
                 },
                 [&](const AttentionOp& a) {
                   s << "b" << a.batch << " h" << a.heads;
                   if (a.kv_heads != a.heads) s << "/" << a.kv_heads;
                   s << " q" << a.seq_q << " kv" << a.seq_kv << " d" << a.head_dim << (a.causal ? " causal" : "") << " "
                     << dt(a.dtype) << (a.backward ? " bwd" : "");
                   if (a.backend != AttentionBackend::automatic) s << " " << attention_backend_name(a.backend);
                 },
                 [&](const Conv2dOp& c) {
                   s << c.n << "x" << c.h << "x" << c.w << "x" << c.c << " k" << c.k << " " << c.r << "x" << c.s;
                   if (c.stride != 1) s << "/" << c.stride;
                   s << " " << dt(c.dtype);
                   if (c.dtype == DataType::fp32 && !c.allow_tf32) s << " no-tf32";
                 },
                 [&](const ElementwiseOp& e) {
                   s << e.elements << " " << dt(e.dtype);
                   if (e.out_dtype != e.dtype) s << "->" << dt(e.out_dtype);
                   if (e.inputs != 1 || e.outputs != 1) s << " " << e.inputs << "in/" << e.outputs << "out";
                   if (!e.contiguous) s << " strided";
                 },
                 [&](const RowOp& r) { s << r.rows << "x" << r.cols << " " << dt(r.dtype) << (r.backward ? " backward" : ""); },
                 [&](const EmbeddingOp& e) {
                   s << e.tokens << " of " << e.vocab << "x" << e.dim << " " << dt(e.dtype) << (e.backward ? " backward" : "");
                 },
                 [&](const CopyOp& c) { s << static_cast<long long>(c.bytes) << " B " << copy_kind_name(c.kind); },
                 [&](const CustomOp& c) { s << c.flops << " FLOP, " << c.bytes << " B " << dt(c.dtype); },
                 [&](const CollectiveOp& c) {
                   s << static_cast<long long>(c.bytes) << " B " << dt(c.dtype) << " x" << c.ranks << " ranks";
                   if (c.stride != 1) s << " stride " << c.stride;
                 },
                 [&](const TracedOp& t) { s << traced_shape(t); },
             },
             op);
  return s.str();
}

double op_flops(const Op& op) {
  return std::visit(
      overloaded{
          [](const GemmOp& g) { return 2.0 * g.m * g.n * g.k * g.batch; },
          [](const AttentionOp& a) {
            const double keep = a.causal ? causal_fraction(a.seq_q, a.seq_kv) : 1.0;
            // Backward: dV, dP, dQ, dK products plus the recomputed scores, 2.5x the forward.
            return (a.backward ? 2.5 : 1.0) * 4.0 * a.batch * a.heads * a.seq_q * a.seq_kv * a.head_dim * keep;
          },
          [](const Conv2dOp& c) { return 2.0 * c.n * c.p() * c.q() * c.k * c.c * c.r * c.s; },
          [](const ElementwiseOp& e) { return e.flops_per_element * e.elements; },
          [](const RowOp& r) {
            // reduce: 1 add; softmax: max, sub, exp, sum, div ~5; layernorm ~8; rmsnorm ~4 per element
            const double per = r.kind == RowOpKind::reduce    ? 1
                               : r.kind == RowOpKind::softmax ? 5
                               : r.kind == RowOpKind::layernorm ? 8
                                                                : 4;
            return (r.backward ? 2 : 1) * per * r.rows * r.cols;  // backward: about twice the forward's arithmetic
          },
          [](const EmbeddingOp&) { return 0.0; },
          [](const CopyOp&) { return 0.0; },
          [](const CustomOp& c) { return c.flops; },
          [](const CollectiveOp&) { return 0.0; },  // reductions are not useful model FLOPs
          [](const TracedOp& t) { return t.flops; },
      },
      op);
}

double op_min_bytes(const Op& op) {
  return std::visit(
      overloaded{
          [](const GemmOp& g) {
            return static_cast<double>(g.batch) *
                   ((g.m * g.k + g.k * g.n) * static_cast<double>(bytes_per_element(g.dtype)) +
                    static_cast<double>(g.m * g.n) * bytes_per_element(g.out_dtype));
          },
          [](const AttentionOp& a) {
            const double e = bytes_per_element(a.dtype);
            const double q_o = 2.0 * a.heads * a.seq_q, k_v = 2.0 * a.kv_heads * a.seq_kv;
            // Backward reads Q, K, V, O, dO and writes dQ, dK, dV.
            return e * a.batch * a.head_dim * (a.backward ? 2 * q_o + 2 * k_v : q_o + k_v);
          },
          [](const Conv2dOp& c) {
            const double e = bytes_per_element(c.dtype);
            return e * (static_cast<double>(c.n) * c.h * c.w * c.c + static_cast<double>(c.k) * c.r * c.s * c.c +
                        static_cast<double>(c.n) * c.p() * c.q() * c.k);
          },
          [](const ElementwiseOp& e) {
            return static_cast<double>(e.elements) *
                   (e.inputs * bytes_per_element(e.dtype) + e.outputs * bytes_per_element(e.out_dtype));
          },
          [](const RowOp& r) {
            const double e = bytes_per_element(r.dtype);
            const double in = e * r.rows * r.cols;
            // Norm backward reads dY and X, writes dX; the weight (and bias) gradients are row-sized.
            if (r.backward) return 3 * in + (r.kind == RowOpKind::layernorm ? 3 : 2) * e * r.cols;
            switch (r.kind) {
              case RowOpKind::reduce: return in + e * r.rows;
              case RowOpKind::softmax: return 2 * in;
              case RowOpKind::layernorm: return 2 * in + 2 * e * r.cols;
              default: return 2 * in + e * r.cols;
            }
          },
          [](const EmbeddingOp& m) {
            // Backward: the gradient rows read, the whole table's gradient written (zeros where no token).
            if (m.backward)
              return (static_cast<double>(m.tokens) * m.dim + static_cast<double>(m.vocab) * m.dim) *
                         bytes_per_element(m.dtype) + 8.0 * m.tokens;
            return 2.0 * m.tokens * m.dim * bytes_per_element(m.dtype) + 8.0 * m.tokens;  // int64 indices
          },
          [](const CopyOp& c) { return c.kind == CopyKind::d2d ? 2 * c.bytes : c.bytes; },
          [](const CustomOp& c) { return c.bytes; },
          [](const CollectiveOp& c) { return c.bytes; },  // read the buffer once (the model adds the rest)
          [](const TracedOp& t) { return t.bytes; },
      },
      op);
}

DataType op_compute_dtype(const Op& op) {
  return std::visit(overloaded{[](const GemmOp& g) { return g.dtype; }, [](const AttentionOp& a) { return a.dtype; },
                               [](const Conv2dOp& c) { return c.uses_tf32() ? DataType::tf32 : c.dtype; },
                               [](const ElementwiseOp&) { return DataType::fp32; },
                               [](const RowOp&) { return DataType::fp32; },
                               [](const EmbeddingOp& e) { return e.dtype; },
                               [](const CopyOp&) { return DataType::fp32; },
                               [](const CustomOp& c) { return c.dtype; },
                               [](const CollectiveOp& c) { return c.dtype; },
                               [](const TracedOp& t) { return t.dtype; }},
                    op);
}

}  // namespace gpucast::wl
