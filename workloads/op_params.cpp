#include "workloads/op_params.h"

#include <cmath>
#include <cstdio>

#include "workloads/traced_op_params.h"

namespace gpucast::wl {
namespace {
using P = ParamKind;
constexpr bool kReq = true;
constexpr bool kOpt = false;

std::int64_t get_int(const ParamMap& p, const std::string& name, std::int64_t fallback) {
  auto it = p.find(name);
  return it == p.end() ? fallback : std::get<std::int64_t>(it->second.value);
}
double get_number(const ParamMap& p, const std::string& name, double fallback) {
  auto it = p.find(name);
  if (it == p.end()) return fallback;
  if (auto* i = std::get_if<std::int64_t>(&it->second.value)) return static_cast<double>(*i);
  return std::get<double>(it->second.value);
}
bool get_bool(const ParamMap& p, const std::string& name, bool fallback) {
  auto it = p.find(name);
  return it == p.end() ? fallback : std::get<bool>(it->second.value);
}
DataType get_dtype(const ParamMap& p, const std::string& name, DataType fallback) {
  auto it = p.find(name);
  return it == p.end() ? fallback : *parse_dtype(std::get<std::string>(it->second.value));
}
std::string get_text(const ParamMap& p, const std::string& name, const std::string& fallback) {
  auto it = p.find(name);
  return it == p.end() ? fallback : std::get<std::string>(it->second.value);
}

// Range checks after construction; the message names the parameter and points at its value.
class Checker {
 public:
  Checker(const ParamMap& p, const std::string& kernel, const SourceLocation& where)
      : p_(p), kernel_(kernel), where_(where) {}
  void positive(const std::string& name, double v) const {
    if (!(v > 0)) fail(name, "must be > 0 (found " + text(v) + ")");
  }
  void non_negative(const std::string& name, double v) const {
    if (!(v >= 0)) fail(name, "must be >= 0 (found " + text(v) + ")");
  }
  // The product of a tensor's dimensions, checked against kMaxElements; `name` is the parameter blamed.
  void elements(const std::string& name, std::initializer_list<Count> dims, const char* tensor) const {
    double product = 1;
    for (Count d : dims) product *= static_cast<double>(d);
    if (product > kMaxElements)
      fail(name, std::string("the ") + tensor + " would hold " + text(product) + " elements, over the limit of 2^48");
  }
  [[noreturn]] void fail(const std::string& name, const std::string& message) const {
    auto it = p_.find(name);
    throw InputError(it == p_.end() ? where_ : it->second.where, name, "kernel '" + kernel_ + "': " + message);
  }

 private:
  static std::string text(double v) {
    if (v == std::floor(v) && std::fabs(v) < 9e18) return std::to_string(static_cast<long long>(v));
    return std::to_string(v);
  }
  const ParamMap& p_;
  const std::string& kernel_;
  const SourceLocation& where_;
};

}  // namespace

#define COLLECTIVE_DEF(NAME, WHAT)                                                                     \
  {                                                                                                     \
    NAME,                                                                                               \
        {{"bytes", P::number, kReq, "", {}, "buffer size as nccl-tests counts it"},                     \
         {"dtype", P::dtype, kOpt, "bf16", {}, "element type (reductions)"},                            \
         {"ranks", P::integer, kReq, "", {}, "GPUs in the group (placed on the system's GPUs in order)"}, \
         {"stride", P::integer, kOpt, "1", {}, "distance between the group's GPUs (a DP group across TP groups)"}}, \
        WHAT " (needs a system: --gpus NxGPU or --system)"                                              \
  }

const std::vector<OpDef>& op_defs() {
  static const std::vector<OpDef> kDefs{
      {"gemm",
       {{"m", P::integer, kReq, "", {}, "rows of A and C"},
        {"n", P::integer, kReq, "", {}, "columns of B and C"},
        {"k", P::integer, kReq, "", {}, "inner dimension"},
        {"batch", P::integer, kOpt, "1", {}, "independent products (batched GEMM)"},
        {"dtype", P::dtype, kReq, "", {}, "operand type"},
        {"out_dtype", P::dtype, kOpt, "= dtype", {}, "output type"}},
       "C[m,n] = A[m,k] B[k,n], batched if batch > 1"},
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
        {"backend", P::choice, kOpt, "auto", {"auto", "flash2", "flash3", "cudnn", "efficient", "math"},
         "PyTorch SDPA kernel family; auto follows PyTorch's choice for the GPU's architecture"}},
       "fused (flash-style) scaled-dot-product attention"},
      {"conv2d",
       {{"n", P::integer, kReq, "", {}, "batch"},
        {"c", P::integer, kReq, "", {}, "input channels"},
        {"h", P::integer, kReq, "", {}, "input height"},
        {"w", P::integer, kReq, "", {}, "input width"},
        {"k", P::integer, kReq, "", {}, "output channels"},
        {"r", P::integer, kReq, "", {}, "filter height", 1, 65536},
        {"s", P::integer, kReq, "", {}, "filter width", 1, 65536},
        {"stride", P::integer, kOpt, "1", {}, "stride", 1, 65536},
        {"pad", P::integer, kOpt, "0", {}, "zero padding", 0, 65536},
        {"dtype", P::dtype, kReq, "", {}, "operand type"},
        {"allow_tf32", P::boolean, kOpt, "true", {},
         "fp32 only: cuDNN may use TF32 tensor cores (PyTorch's torch.backends.cudnn.allow_tf32); false: FMA kernels"}},
       "2-D convolution, NHWC, as cuDNN runs it (GEMM, implicit GEMM or Winograd by shape and type)"},
      {"elementwise",
       {{"elements", P::integer, kReq, "", {}, "elements per tensor"},
        {"dtype", P::dtype, kReq, "", {}, "input type"},
        {"out_dtype", P::dtype, kOpt, "= dtype", {}, "output type"},
        {"inputs", P::integer, kOpt, "1", {}, "input tensors", 0, 64},
        {"outputs", P::integer, kOpt, "1", {}, "output tensors", 1, 64},
        {"flops_per_element", P::number, kOpt, "1", {}, "arithmetic per element", 0, 1e6},
        {"contiguous", P::boolean, kOpt, "true", {}, "false for strided views (transposes, slices): a non-vectorized kernel"}},
       "pointwise map over tensors of equal size (add, mul, GELU, casts, ...)"},
      {"reduce",
       {{"rows", P::integer, kReq, "", {}, "independent reductions"},
        {"cols", P::integer, kReq, "", {}, "elements reduced per row"},
        {"dtype", P::dtype, kReq, "", {}, "type"}},
       "sum over the last dimension"},
      {"softmax",
       {{"rows", P::integer, kReq, "", {}, "rows"},
        {"cols", P::integer, kReq, "", {}, "softmax length"},
        {"dtype", P::dtype, kReq, "", {}, "type"}},
       "softmax over the last dimension"},
      {"layernorm",
       {{"rows", P::integer, kReq, "", {}, "rows (tokens)"},
        {"hidden", P::integer, kReq, "", {}, "normalized size"},
        {"dtype", P::dtype, kReq, "", {}, "type"},
        {"backward", P::boolean, kOpt, "false", {}, "the backward pass (dX, dweight, dbias) instead of the forward"}},
       "layer normalization with weight and bias"},
      {"rmsnorm",
       {{"rows", P::integer, kReq, "", {}, "rows (tokens)"},
        {"hidden", P::integer, kReq, "", {}, "normalized size"},
        {"dtype", P::dtype, kReq, "", {}, "type"},
        {"backward", P::boolean, kOpt, "false", {}, "the backward pass (dX, dweight) instead of the forward"}},
       "RMS normalization with weight"},
      {"embedding",
       {{"vocab", P::integer, kReq, "", {}, "table rows"},
        {"dim", P::integer, kReq, "", {}, "row width"},
        {"tokens", P::integer, kReq, "", {}, "rows gathered"},
        {"dtype", P::dtype, kReq, "", {}, "table type"},
        {"backward", P::boolean, kOpt, "false", {}, "the table's gradient (embedding_dense_backward) instead of the gather"}},
       "row gather from an embedding table"},
      {"copy",
       {{"bytes", P::number, kReq, "", {}, "bytes copied", 1, 1e18},
        {"kind", P::choice, kOpt, "d2d", {"d2d", "h2d", "d2h"}, "device-device, or across PCIe (pinned host memory)"}},
       "memory copy"},
      {"custom",
       {{"flops", P::number, kReq, "", {}, "floating-point operations", 0, 1e24},
        {"bytes", P::number, kReq, "", {}, "bytes moved through device memory", 0, 1e18},
        {"dtype", P::dtype, kOpt, "fp32", {}, "arithmetic type (tensor-core rate for tf32/fp16/bf16/fp8/int8)"}},
       "any other kernel, by its counts"},
      COLLECTIVE_DEF("all_reduce", "sum a buffer across ranks; every rank gets the result"),
      COLLECTIVE_DEF("all_gather", "concatenate every rank's part; bytes = the gathered output"),
      COLLECTIVE_DEF("reduce_scatter", "sum across ranks, each rank keeps 1/ranks; bytes = the input"),
      COLLECTIVE_DEF("all_to_all", "every rank sends a 1/ranks part to every other; bytes = one rank's send buffer"),
      COLLECTIVE_DEF("broadcast", "one rank's buffer to all"),
      COLLECTIVE_DEF("send", "point-to-point send to the next rank (pipeline stages)"),
      COLLECTIVE_DEF("recv", "point-to-point receive from the previous rank"),
      traced_op_def(),
  };
  return kDefs;
}

const OpDef* find_op_def(std::string_view op) {
  for (const auto& def : op_defs())
    if (def.op == op) return &def;
  return nullptr;
}

std::vector<std::string> op_names() {
  std::vector<std::string> names;
  for (const auto& def : op_defs()) names.emplace_back(def.op);
  return names;
}

namespace {
std::string range_number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.15g", v);
  return buf;
}
}  // namespace

std::string param_range_text(const ParamDef& def) {
  if (def.kind != ParamKind::integer && def.kind != ParamKind::number) return "";
  const double max = def.max > 0 ? def.max : def.kind == ParamKind::integer ? double(kMaxDim) : kMaxNumber;
  return "[" + range_number(def.min) + ", " + range_number(max) + "]";
}

void check_param_ranges(const OpDef& def, const ParamMap& p, const std::string& kernel) {
  for (const auto& param : def.params) {
    auto it = p.find(std::string(param.name));
    if (it == p.end()) continue;
    double v = 0;
    if (const auto* i = std::get_if<std::int64_t>(&it->second.value)) v = static_cast<double>(*i);
    else if (const auto* d = std::get_if<double>(&it->second.value)) v = *d;
    else continue;
    const double max = param.max > 0 ? param.max : param.kind == ParamKind::integer ? double(kMaxDim) : kMaxNumber;
    if (!std::isfinite(v))
      throw InputError(it->second.where, std::string(param.name),
                       "kernel '" + kernel + "': must be a finite number (found " + range_number(v) + ")");
    if (v < param.min || v > max)
      throw InputError(it->second.where, std::string(param.name),
                       "kernel '" + kernel + "': out of range: must be in " + param_range_text(param) + " (found " +
                           range_number(v) + ")");
  }
}

Op build_op(std::string_view op, const ParamMap& p, const std::string& kernel, const SourceLocation& where) {
  const Checker check(p, kernel, where);
  if (const OpDef* def = find_op_def(op)) check_param_ranges(*def, p, kernel);
  if (op == "gemm") {
    GemmOp g;
    g.m = get_int(p, "m", 0);
    g.n = get_int(p, "n", 0);
    g.k = get_int(p, "k", 0);
    g.batch = get_int(p, "batch", 1);
    g.dtype = get_dtype(p, "dtype", DataType::bf16);
    g.out_dtype = get_dtype(p, "out_dtype", g.dtype);
    for (auto [name, v] : {std::pair{"m", g.m}, {"n", g.n}, {"k", g.k}, {"batch", g.batch}})
      check.positive(name, static_cast<double>(v));
    check.elements("m", {g.batch, g.m, g.k}, "A operand");
    check.elements("n", {g.batch, g.k, g.n}, "B operand");
    check.elements("m", {g.batch, g.m, g.n}, "output");
    return g;
  }
  if (op == "attention") {
    AttentionOp a;
    a.batch = get_int(p, "batch", 0);
    a.heads = get_int(p, "heads", 0);
    a.kv_heads = get_int(p, "kv_heads", a.heads);
    a.seq_q = get_int(p, "seq_q", 0);
    a.seq_kv = get_int(p, "seq_kv", 0);
    a.head_dim = get_int(p, "head_dim", 0);
    a.causal = get_bool(p, "causal", false);
    a.dtype = get_dtype(p, "dtype", DataType::bf16);
    a.backward = get_bool(p, "backward", false);
    const std::string backend = get_text(p, "backend", "auto");
    for (auto b : {AttentionBackend::automatic, AttentionBackend::flash2, AttentionBackend::flash3,
                   AttentionBackend::cudnn, AttentionBackend::efficient, AttentionBackend::math})
      if (attention_backend_name(b) == backend) a.backend = b;
    for (auto [name, v] : {std::pair{"batch", a.batch}, {"heads", a.heads}, {"kv_heads", a.kv_heads},
                           {"seq_q", a.seq_q}, {"seq_kv", a.seq_kv}, {"head_dim", a.head_dim}})
      check.positive(name, static_cast<double>(v));
    if (a.heads % a.kv_heads != 0) check.fail("kv_heads", "heads must be a multiple of kv_heads");
    check.elements("seq_q", {a.batch, a.heads, a.seq_q, a.head_dim}, "query");
    check.elements("seq_kv", {a.batch, a.kv_heads, a.seq_kv, a.head_dim}, "key");
    check.elements("seq_kv", {a.batch, a.heads, a.seq_q, a.seq_kv}, "score matrix");
    return a;
  }
  if (op == "conv2d") {
    Conv2dOp c;
    c.n = get_int(p, "n", 0);
    c.c = get_int(p, "c", 0);
    c.h = get_int(p, "h", 0);
    c.w = get_int(p, "w", 0);
    c.k = get_int(p, "k", 0);
    c.r = get_int(p, "r", 0);
    c.s = get_int(p, "s", 0);
    c.stride = get_int(p, "stride", 1);
    c.pad = get_int(p, "pad", 0);
    c.dtype = get_dtype(p, "dtype", DataType::bf16);
    c.allow_tf32 = get_bool(p, "allow_tf32", true);
    for (auto [name, v] : {std::pair{"n", c.n}, {"c", c.c}, {"h", c.h}, {"w", c.w}, {"k", c.k}, {"r", c.r},
                           {"s", c.s}, {"stride", c.stride}})
      check.positive(name, static_cast<double>(v));
    check.non_negative("pad", static_cast<double>(c.pad));
    if (c.p() < 1 || c.q() < 1) check.fail("r", "the filter is larger than the padded input");
    check.elements("h", {c.n, c.h, c.w, c.c}, "input");
    check.elements("k", {c.k, c.r, c.s, c.c}, "filter");
    check.elements("n", {c.n, c.p(), c.q(), c.k}, "output");
    check.elements("k", {c.n, c.p(), c.q(), c.k, c.r, c.s, c.c}, "implicit GEMM (n p q k r s c)");
    return c;
  }
  if (op == "elementwise") {
    ElementwiseOp e;
    e.elements = get_int(p, "elements", 0);
    e.dtype = get_dtype(p, "dtype", DataType::bf16);
    e.out_dtype = get_dtype(p, "out_dtype", e.dtype);
    e.inputs = static_cast<int>(get_int(p, "inputs", 1));
    e.outputs = static_cast<int>(get_int(p, "outputs", 1));
    e.flops_per_element = get_number(p, "flops_per_element", 1);
    e.contiguous = get_bool(p, "contiguous", true);
    check.positive("elements", static_cast<double>(e.elements));
    check.elements("elements", {e.elements}, "tensor");
    check.non_negative("inputs", e.inputs);
    check.positive("outputs", e.outputs);
    check.non_negative("flops_per_element", e.flops_per_element);
    return e;
  }
  if (op == "reduce" || op == "softmax" || op == "layernorm" || op == "rmsnorm") {
    RowOp r;
    r.kind = op == "reduce"    ? RowOpKind::reduce
             : op == "softmax" ? RowOpKind::softmax
             : op == "layernorm" ? RowOpKind::layernorm
                                 : RowOpKind::rmsnorm;
    const bool norm = r.kind == RowOpKind::layernorm || r.kind == RowOpKind::rmsnorm;
    r.rows = get_int(p, "rows", 0);
    r.cols = get_int(p, norm ? "hidden" : "cols", 0);
    r.dtype = get_dtype(p, "dtype", DataType::bf16);
    if (norm) r.backward = get_bool(p, "backward", false);
    check.positive("rows", static_cast<double>(r.rows));
    check.positive(norm ? "hidden" : "cols", static_cast<double>(r.cols));
    check.elements("rows", {r.rows, r.cols}, "tensor");
    return r;
  }
  if (op == "embedding") {
    EmbeddingOp e;
    e.vocab = get_int(p, "vocab", 0);
    e.dim = get_int(p, "dim", 0);
    e.tokens = get_int(p, "tokens", 0);
    e.dtype = get_dtype(p, "dtype", DataType::bf16);
    e.backward = get_bool(p, "backward", false);
    for (auto [name, v] : {std::pair{"vocab", e.vocab}, {"dim", e.dim}, {"tokens", e.tokens}})
      check.positive(name, static_cast<double>(v));
    check.elements("vocab", {e.vocab, e.dim}, "table");
    check.elements("tokens", {e.tokens, e.dim}, "output");
    return e;
  }
  if (op == "copy") {
    CopyOp c;
    c.bytes = get_number(p, "bytes", 0);
    const std::string kind = get_text(p, "kind", "d2d");
    c.kind = kind == "h2d" ? CopyKind::h2d : kind == "d2h" ? CopyKind::d2h : CopyKind::d2d;
    check.positive("bytes", c.bytes);
    return c;
  }
  if (op == "custom") {
    CustomOp c;
    c.flops = get_number(p, "flops", 0);
    c.bytes = get_number(p, "bytes", 0);
    c.dtype = get_dtype(p, "dtype", DataType::fp32);
    check.non_negative("flops", c.flops);
    check.non_negative("bytes", c.bytes);
    if (c.flops == 0 && c.bytes == 0) check.fail("flops", "a custom kernel needs flops or bytes > 0");
    return c;
  }
  if (auto kind = parse_collective(op)) {
    CollectiveOp c;
    c.kind = *kind;
    c.bytes = get_number(p, "bytes", 0);
    c.dtype = get_dtype(p, "dtype", DataType::bf16);
    const std::int64_t ranks = get_int(p, "ranks", 0);
    check.positive("bytes", c.bytes);
    if (!std::isfinite(c.bytes) || c.bytes > 1e15) check.fail("bytes", "must be finite and at most 1e15");
    if (ranks < 1 || ranks > 1000000) check.fail("ranks", "must be between 1 and 1000000");
    if ((c.kind == CollectiveKind::send || c.kind == CollectiveKind::recv) && ranks < 2)
      check.fail("ranks", "send and recv need ranks >= 2 (the two stages)");
    c.ranks = static_cast<int>(ranks);
    const std::int64_t stride = get_int(p, "stride", 1);
    if (stride < 1 || stride > 1000000) check.fail("stride", "must be between 1 and 1000000");
    c.stride = static_cast<int>(stride);
    return c;
  }
  if (op == "traced") return build_traced_op(p, kernel, where);
  throw InputError(where, "op", "unknown op '" + std::string(op) + "'");
}

std::vector<std::pair<std::string, ParamValue>> op_params(const Op& op) {
  using V = std::vector<std::pair<std::string, ParamValue>>;
  auto i = [](Count v) { return ParamValue{static_cast<std::int64_t>(v)}; };
  auto d = [](DataType t) { return ParamValue{std::string(to_string(t))}; };
  if (auto* g = std::get_if<GemmOp>(&op)) {
    V v{{"m", i(g->m)}, {"n", i(g->n)}, {"k", i(g->k)}};
    if (g->batch != 1) v.emplace_back("batch", i(g->batch));
    v.emplace_back("dtype", d(g->dtype));
    if (g->out_dtype != g->dtype) v.emplace_back("out_dtype", d(g->out_dtype));
    return v;
  }
  if (auto* a = std::get_if<AttentionOp>(&op)) {
    V v{{"batch", i(a->batch)}, {"heads", i(a->heads)}};
    if (a->kv_heads != a->heads) v.emplace_back("kv_heads", i(a->kv_heads));
    v.insert(v.end(), {{"seq_q", i(a->seq_q)}, {"seq_kv", i(a->seq_kv)}, {"head_dim", i(a->head_dim)}});
    if (a->causal) v.emplace_back("causal", ParamValue{true});
    v.emplace_back("dtype", d(a->dtype));
    if (a->backward) v.emplace_back("backward", ParamValue{true});
    if (a->backend != AttentionBackend::automatic)
      v.emplace_back("backend", ParamValue{std::string(attention_backend_name(a->backend))});
    return v;
  }
  if (auto* c = std::get_if<Conv2dOp>(&op)) {
    V v{{"n", i(c->n)}, {"c", i(c->c)}, {"h", i(c->h)}, {"w", i(c->w)},
        {"k", i(c->k)}, {"r", i(c->r)}, {"s", i(c->s)}};
    if (c->stride != 1) v.emplace_back("stride", i(c->stride));
    if (c->pad != 0) v.emplace_back("pad", i(c->pad));
    v.emplace_back("dtype", d(c->dtype));
    if (!c->allow_tf32) v.emplace_back("allow_tf32", ParamValue{false});
    return v;
  }
  if (auto* e = std::get_if<ElementwiseOp>(&op)) {
    V v{{"elements", i(e->elements)}, {"dtype", d(e->dtype)}};
    if (e->out_dtype != e->dtype) v.emplace_back("out_dtype", d(e->out_dtype));
    if (e->inputs != 1) v.emplace_back("inputs", i(e->inputs));
    if (e->outputs != 1) v.emplace_back("outputs", i(e->outputs));
    if (e->flops_per_element != 1) v.emplace_back("flops_per_element", ParamValue{e->flops_per_element});
    if (!e->contiguous) v.emplace_back("contiguous", ParamValue{false});
    return v;
  }
  if (auto* r = std::get_if<RowOp>(&op)) {
    const bool norm = r->kind == RowOpKind::layernorm || r->kind == RowOpKind::rmsnorm;
    V v{{"rows", i(r->rows)}, {norm ? "hidden" : "cols", i(r->cols)}, {"dtype", d(r->dtype)}};
    if (r->backward) v.emplace_back("backward", ParamValue{true});
    return v;
  }
  if (auto* e = std::get_if<EmbeddingOp>(&op)) {
    V v{{"vocab", i(e->vocab)}, {"dim", i(e->dim)}, {"tokens", i(e->tokens)}, {"dtype", d(e->dtype)}};
    if (e->backward) v.emplace_back("backward", ParamValue{true});
    return v;
  }
  if (auto* c = std::get_if<CopyOp>(&op)) {
    V v{{"bytes", ParamValue{c->bytes}}};
    if (c->kind != CopyKind::d2d) v.emplace_back("kind", ParamValue{std::string(copy_kind_name(c->kind))});
    return v;
  }
  if (auto* c = std::get_if<CollectiveOp>(&op)) {
    V v{{"bytes", ParamValue{c->bytes}}};
    if (c->dtype != DataType::bf16) v.emplace_back("dtype", d(c->dtype));
    v.emplace_back("ranks", i(c->ranks));
    if (c->stride != 1) v.emplace_back("stride", i(c->stride));
    return v;
  }
  if (auto* t = std::get_if<TracedOp>(&op)) return traced_op_params(*t);
  const auto& c = std::get<CustomOp>(op);
  V v{{"flops", ParamValue{c.flops}}, {"bytes", ParamValue{c.bytes}}};
  if (c.dtype != DataType::fp32) v.emplace_back("dtype", d(c.dtype));
  return v;
}

}  // namespace gpucast::wl
