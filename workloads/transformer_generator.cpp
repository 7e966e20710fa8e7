#include "workloads/transformer_generator.h"

#include <algorithm>
#include <cmath>
#include <optional>

#include "common/errors.h"
#include "workloads/kernel_sequence.h"
#include "workloads/mixed_precision.h"

namespace gpucast::wl {
namespace {

using Layout = KernelSequence::GemmLayout;

struct Shape {
  double batch, seq_q, seq_kv, tokens, logits_rows;
};

class TransformerBuilder {
 public:
  TransformerBuilder(const TransformerConfig& c, const GenerateOptions& o, const Shape& s)
      : c_(c), o_(o), s_(s), t_(o.dtype), a_(activation_dtype(o.dtype)), kv_(kv_cache_dtype(o.dtype)),
        d_(double(c.d_model)), hd_(double(c.head_dim())),
        tp_(o.parallel.tp), heads_(c.heads / tp_), kv_heads_(c.kv_heads >= tp_ ? c.kv_heads / tp_ : 1),
        q_width_(double(heads_) * hd_), kv_width_(double(kv_heads_) * hd_), ffn_(double(c.ffn) / tp_) {}

  // Tokens the norms and residuals see: sequence parallel splits them over the TP group.
  [[nodiscard]] double norm_tokens() const { return o_.parallel.sp ? s_.tokens / tp_ : s_.tokens; }

  // The TP group's exchange after a row-parallel GEMM (forward) or before/after the column-parallel
  // one: an all-reduce, or with sequence parallelism a reduce-scatter here and an all-gather where
  // the full sequence is needed again.
  void tp_reduce(const std::string& name) {
    if (tp_ <= 1) return;
    const double bytes = s_.tokens * d_ * bytes_per_element(a_);
    if (o_.parallel.sp) collective(name + "_reduce_scatter", CollectiveKind::reduce_scatter, bytes, tp_, 1, a_);
    else collective(name + "_all_reduce", CollectiveKind::all_reduce, bytes, tp_, 1, a_);
  }
  void tp_gather(const std::string& name) {
    if (tp_ <= 1 || !o_.parallel.sp) return;
    collective(name + "_all_gather", CollectiveKind::all_gather, s_.tokens * d_ * bytes_per_element(a_), tp_, 1, a_);
  }
  // `dt`: the activations' type (a_) or, by default, the weights' (parameter gathers).
  void collective(const std::string& name, CollectiveKind kind, double bytes, int ranks, int stride = 1,
                  std::optional<DataType> dt = std::nullopt) {
    CollectiveOp c;
    c.kind = kind;
    c.bytes = std::max(1.0, std::round(bytes));
    c.dtype = dt.value_or(t_);
    c.ranks = ranks;
    c.stride = stride;
    k_.add(name, c);
  }
  // Pipeline stages exchange activations (forward) or their gradients (backward).
  void pipeline_transfer(const std::string& name, CollectiveKind kind) {
    if (o_.parallel.pp <= 1) return;
    k_.scope("");
    collective(name, kind, s_.tokens * d_ * bytes_per_element(a_) / (o_.parallel.sp ? tp_ : 1), 2,
               tp_ * o_.parallel.dp, a_);
  }

  void embeddings() {
    k_.scope("");
    k_.add("embed", EmbeddingOp{Count(std::ceil(double(c_.vocab) / tp_)), c_.d_model, Count(s_.tokens), a_});
    if (tp_ > 1) {  // vocabulary-parallel embedding: each rank holds a slice of the table
      const double bytes = s_.tokens * d_ * bytes_per_element(a_);
      if (o_.parallel.sp) collective("embed_reduce_scatter", CollectiveKind::reduce_scatter, bytes, tp_, 1, a_);
      else collective("embed_all_reduce", CollectiveKind::all_reduce, bytes, tp_, 1, a_);
    }
    if (!c_.rope) k_.pointwise("add_positions", s_.tokens * d_, a_, 2);
    if (!c_.decoder) k_.norm("embed_norm", s_.tokens, d_, a_, false);
  }

  void layer_forward(int l) {
    k_.scope("l" + std::to_string(l) + ".");
    const double T = s_.tokens, Tn = norm_tokens();
    // ZeRO-3 / FSDP: gather this layer's parameters from the data-parallel group first.
    gather_layer_params(l);
    k_.norm("attn_norm", Tn, d_, a_, c_.rmsnorm);
    tp_gather("attn");
    k_.gemm("qkv", T, q_width_ + 2 * kv_width_, d_, t_, 1, Layout::b_transposed);
    if (c_.rope) rope();
    if (o_.mode == Mode::decode) {
      // Append this step's K and V to the cache (strided copies into the cache tensors).
      k_.pointwise("kv_cache_k", T * kv_width_, kv_, 1, 0, false);
      k_.pointwise("kv_cache_v", T * kv_width_, kv_, 1, 0, false);
    }
    attention(false);
    // (B, heads, S, hd) -> (B, S, d): a strided copy in eager PyTorch.
    if (!o_.fused_elementwise) k_.pointwise("attn_transpose", T * q_width_, a_, 1, 0, false);
    k_.gemm("o_proj", T, d_, q_width_, t_, 1, Layout::b_transposed);
    tp_reduce("attn");
    k_.pointwise("residual1", Tn * d_, a_, 2);
    k_.norm("mlp_norm", Tn, d_, a_, c_.rmsnorm);
    tp_gather("mlp");
    if (c_.moe_layer(l)) {
      moe_mlp();
    } else {
      dense_mlp(ffn_);
    }
    tp_reduce("mlp");
    k_.pointwise("residual2", Tn * d_, a_, 2);
  }

  void dense_mlp(double ffn, const std::string& prefix = "") {
    const double T = s_.tokens;
    if (c_.swiglu) {
      k_.gemm(prefix + "gate_up", T, 2 * ffn, d_, t_, 1, Layout::b_transposed);
      if (o_.fused_elementwise) {
        k_.pointwise(prefix + "silu_mul", T * ffn, a_, 2, 5);
      } else {  // silu(gate) and gate * up on strided halves of the fused projection
        k_.pointwise(prefix + "silu", T * ffn, a_, 1, 4, false);
        k_.pointwise(prefix + "mul", T * ffn, a_, 2, 1, false);
      }
    } else {
      k_.gemm(prefix + "up", T, ffn, d_, t_, 1, Layout::b_transposed);
      k_.pointwise(prefix + "gelu", T * ffn, a_, 1, 10);
    }
    k_.gemm(prefix + "down", T, d_, ffn, t_, 1, Layout::b_transposed);
  }

  // Routed experts: a router GEMM and top-k softmax, the tokens dispatched to the experts' ranks by
  // an all-to-all (expert parallelism), one grouped GEMM per projection over the local experts, the
  // results combined by a second all-to-all and summed with their router weights; shared experts
  // run as a dense MLP beside them.
  void moe_mlp() {
    const int ep = o_.parallel.ep;
    // Under TP the tokens are replicated; with expert parallelism each TP rank routes its share.
    const double T = (ep > 1 || o_.parallel.sp) ? s_.tokens / tp_ : s_.tokens;
    const double k = c_.experts_per_token, E = c_.experts;
    const double local_experts = std::max(1.0, E / ep);
    // Without expert parallelism the experts' columns are split over the TP group like a dense MLP.
    const double width = ep > 1 ? double(c_.expert_ffn) : double(c_.expert_ffn) / tp_;
    const double e = bytes_per_element(t_);
    k_.gemm("router", T, E, d_, t_, 1, Layout::b_transposed);
    k_.add("router_softmax", RowOp{RowOpKind::softmax, Count(std::llround(T)), Count(E), DataType::fp32});
    k_.pointwise("topk_gather", T * k * d_, a_, 1, 0, false);
    if (ep > 1) collective("moe_dispatch", CollectiveKind::all_to_all, T * k * d_ * e, ep);
    const double rows = std::max(1.0, std::round(T * k / local_experts));  // tokens per local expert (balanced)
    k_.gemm("experts_gate_up", rows, (c_.swiglu ? 2 : 1) * width, d_, t_, local_experts,
            Layout::b_transposed);
    k_.pointwise("experts_act", rows * local_experts * width, a_, c_.swiglu ? 2 : 1, 5);
    k_.gemm("experts_down", rows, d_, width, t_, local_experts, Layout::b_transposed);
    if (ep > 1) collective("moe_combine", CollectiveKind::all_to_all, T * k * d_ * e, ep);
    k_.pointwise("moe_weighted_sum", T * k * d_, a_, 2, 2);
    if (c_.shared_experts > 0) dense_mlp(double(c_.shared_experts) * c_.expert_ffn / tp_, "shared_");
  }

  void head() {
    k_.scope("");
    if (c_.decoder) {
      k_.norm("final_norm", s_.tokens, d_, a_, c_.rmsnorm);
      k_.gemm("lm_head", s_.logits_rows, std::ceil(double(c_.vocab) / tp_), d_, t_, 1, Layout::b_transposed);
      // Vocabulary-parallel logits: the loss needs the softmax statistics of every shard.
      if (tp_ > 1 && o_.mode == Mode::train)
        collective("lm_head_all_reduce", CollectiveKind::all_reduce, s_.logits_rows * 2 * 4, tp_);
    } else {
      k_.gemm("pooler", s_.batch, d_, d_, t_, 1, Layout::b_transposed);
      k_.pointwise("pooler_tanh", s_.batch * d_, a_, 1, 6);
    }
  }

  void loss() {
    k_.scope("");
    const double rows = s_.tokens, v = std::ceil(double(c_.vocab) / tp_);
    k_.pointwise("logits_to_fp32", rows * v, a_, 1, 0);
    k_.add("cross_entropy_softmax", RowOp{RowOpKind::softmax, Count(rows), Count(v), DataType::fp32});
    k_.add("cross_entropy_loss", RowOp{RowOpKind::reduce, 1, Count(rows), DataType::fp32});
    k_.pointwise("cross_entropy_grad", rows * v, DataType::fp32, 2, 2);
    k_.gemm("lm_head_dgrad", rows, d_, v, t_);
    k_.gemm("lm_head_wgrad", v, d_, rows, t_, 1, Layout::a_transposed);
    k_.pointwise("final_norm_grad", rows * d_, a_, 3, 8);
  }

  void layer_backward(int l) {
    if (o_.recompute) layer_forward(l);  // activation checkpointing reruns the layer's forward
    k_.scope("l" + std::to_string(l) + ".bwd.");
    gather_layer_params(l);
    const double T = s_.tokens, Tn = norm_tokens(), ffn = ffn_;
    if (c_.moe_layer(l)) {
      moe_backward();
    } else {
      const double mlp_in = c_.swiglu ? 2 * ffn : ffn;
      tp_gather("mlp_grad");
      k_.gemm("down_dgrad", T, ffn, d_, t_);
      k_.gemm("down_wgrad", ffn, d_, T, t_, 1, Layout::a_transposed);
      k_.pointwise(c_.swiglu ? "silu_mul_grad" : "gelu_grad", T * ffn, a_, c_.swiglu ? 3 : 2, 12, true,
                   c_.swiglu ? 2 : 1);
      k_.gemm("mlp_in_dgrad", T, d_, mlp_in, t_);
      k_.gemm("mlp_in_wgrad", d_, mlp_in, T, t_, 1, Layout::a_transposed);
    }
    tp_reduce("mlp_grad");
    k_.pointwise("mlp_norm_grad", Tn * d_, a_, 3, 8);
    k_.pointwise("residual_grad1", Tn * d_, a_, 2);
    tp_gather("attn_grad");
    k_.gemm("o_proj_dgrad", T, q_width_, d_, t_);
    k_.gemm("o_proj_wgrad", q_width_, d_, T, t_, 1, Layout::a_transposed);
    attention(true);
    if (c_.rope) k_.pointwise("rope_grad", T * (q_width_ + kv_width_), a_, 3, 3);
    k_.gemm("qkv_dgrad", T, d_, q_width_ + 2 * kv_width_, t_);
    k_.gemm("qkv_wgrad", d_, q_width_ + 2 * kv_width_, T, t_, 1, Layout::a_transposed);
    tp_reduce("attn_grad");
    const std::string last_wgrad = k_.last_name();
    k_.pointwise("attn_norm_grad", Tn * d_, a_, 3, 8);
    k_.pointwise("residual_grad2", Tn * d_, a_, 2);
    reduce_layer_grads(l, last_wgrad);
  }

  void moe_backward() {
    const int ep = o_.parallel.ep;
    const double T = (ep > 1 || o_.parallel.sp) ? s_.tokens / tp_ : s_.tokens;
    const double k = c_.experts_per_token, E = c_.experts;
    const double local_experts = std::max(1.0, E / ep);
    const double width = ep > 1 ? double(c_.expert_ffn) : double(c_.expert_ffn) / tp_;
    const double e = bytes_per_element(t_);
    const double rows = std::max(1.0, std::round(T * k / local_experts));
    if (ep > 1) collective("moe_combine_grad", CollectiveKind::all_to_all, T * k * d_ * e, ep);
    k_.gemm("experts_down_dgrad", rows, width, d_, t_, local_experts);
    k_.gemm("experts_down_wgrad", width, d_, rows, t_, local_experts, Layout::a_transposed);
    k_.pointwise("experts_act_grad", rows * local_experts * width, a_, 3, 12, true, 2);
    k_.gemm("experts_gate_up_dgrad", rows, d_, (c_.swiglu ? 2 : 1) * width, t_, local_experts);
    k_.gemm("experts_gate_up_wgrad", d_, (c_.swiglu ? 2 : 1) * width, rows, t_, local_experts,
            Layout::a_transposed);
    if (ep > 1) collective("moe_dispatch_grad", CollectiveKind::all_to_all, T * k * d_ * e, ep);
    k_.gemm("router_grad", T, d_, E, t_);
    if (c_.shared_experts > 0) {
      const double w = double(c_.shared_experts) * c_.expert_ffn / tp_;
      k_.gemm("shared_down_dgrad", s_.tokens, w, d_, t_);
      k_.gemm("shared_down_wgrad", w, d_, s_.tokens, t_, 1, Layout::a_transposed);
      k_.gemm("shared_in_dgrad", s_.tokens, d_, 2 * w, t_);
      k_.gemm("shared_in_wgrad", d_, 2 * w, s_.tokens, t_, 1, Layout::a_transposed);
    }
  }

  // Data parallelism: this layer's gradients leave on the communication stream (stream 1) as soon
  // as its weight gradients exist, overlapping the backward of the layers below: an all-reduce
  // (DDP, ZeRO-1) or a reduce-scatter (ZeRO-2/3, FSDP). With pipeline stages they wait for the
  // step's last microbatch and are issued with the optimizer instead.
  void reduce_layer_grads(int l, const std::string& after) {
    const int dp = o_.parallel.dp;
    if (dp <= 1 || o_.parallel.pp > 1) return;
    const double bytes = local_layer_params(l) * bytes_per_element(t_);
    CollectiveOp c;
    c.kind = o_.parallel.zero >= Zero::os_grad ? CollectiveKind::reduce_scatter : CollectiveKind::all_reduce;
    c.bytes = std::max(1.0, std::round(bytes));
    c.dtype = t_;
    c.ranks = dp;
    c.stride = tp_;
    grad_reductions_.push_back(k_.add_on("grad_" + std::string(collective_name(c.kind)), c, 1, {after}));
  }

  void gather_layer_params(int l) {
    if (o_.parallel.dp <= 1 || o_.parallel.zero != Zero::full) return;
    collective("param_all_gather", CollectiveKind::all_gather, local_layer_params(l) * bytes_per_element(t_),
               o_.parallel.dp, tp_);
  }

  // Weights of layer `l` on one rank of the TP / EP groups.
  [[nodiscard]] double local_layer_params(int l) const {
    const double all = layer_parameter_count(c_, l);
    if (!c_.moe_layer(l)) return all / tp_;
    const double per_expert = (c_.swiglu ? 3.0 : 2.0) * d_ * c_.expert_ffn;
    const double experts = per_expert * c_.experts;
    const double rest = all - experts;
    const int ep = o_.parallel.ep;
    return rest / tp_ + (ep > 1 ? experts / ep : experts / tp_);
  }

  // Pipeline stages: the step's data-parallel gradient exchange, issued once after the last
  // microbatch (the tail of the step).
  void tail_grad_reduction(double params) {
    const int dp = o_.parallel.dp;
    if (dp <= 1) return;
    k_.scope("");
    CollectiveOp c;
    c.kind = o_.parallel.zero >= Zero::os_grad ? CollectiveKind::reduce_scatter : CollectiveKind::all_reduce;
    c.bytes = std::max(1.0, std::round(params * bytes_per_element(t_)));
    c.dtype = t_;
    c.ranks = dp;
    c.stride = tp_;
    k_.add("grad_" + std::string(collective_name(c.kind)), c);
  }

  // ZeRO-1/2 shard the optimizer: after the step each rank all-gathers the updated parameters.
  void zero_param_gather(double params) {
    if (o_.parallel.dp <= 1 || o_.parallel.zero == Zero::none || o_.parallel.zero == Zero::full) return;
    k_.scope("");
    collective("zero_param_all_gather", CollectiveKind::all_gather, params * bytes_per_element(t_), o_.parallel.dp,
               tp_);
  }

  [[nodiscard]] const std::vector<std::string>& grad_reductions() const { return grad_reductions_; }
  [[nodiscard]] size_t size() const { return k_.size(); }

  void optimizer(double params, const std::string& name) {
    // AdamW on fp32 master weights: read weight, grad, m, v; write weight, m, v (and the bf16 copy).
    ElementwiseOp e;
    e.elements = Count(std::llround(params));
    e.dtype = e.out_dtype = DataType::fp32;
    e.inputs = 4;
    e.outputs = t_ == DataType::fp32 ? 3 : 4;
    e.flops_per_element = 12;
    k_.add(name, e);
  }

  // The optimizer of a layer waits for its gradient reduction (on stream 1).
  void optimizer_after(double params, const std::string& name, const std::string& reduction) {
    optimizer(params, name);
    if (!reduction.empty()) k_.depend_last_on(reduction);
  }

  std::vector<Kernel> take() { return k_.take(); }

 private:
  void rope() {
    const double T = s_.tokens;
    if (o_.fused_elementwise) {
      k_.pointwise("rope", T * (q_width_ + kv_width_), a_, 3, 3);
      return;
    }
    // Eager rotate-half: x1*cos, x2*sin on strided halves, their difference and sum, then a cat;
    // once for the queries, once for the keys.
    for (const auto& [name, width] : {std::pair<const char*, double>{"q", q_width_}, {"k", kv_width_}}) {
      const double half = T * width / 2;
      const std::string n(name);
      k_.pointwise("rope_" + n + "_mul1", half, a_, 2, 1, false);
      k_.pointwise("rope_" + n + "_mul2", half, a_, 2, 1, false);
      k_.pointwise("rope_" + n + "_sub", half, a_, 2);
      k_.pointwise("rope_" + n + "_mul3", half, a_, 2, 1, false);
      k_.pointwise("rope_" + n + "_mul4", half, a_, 2, 1, false);
      k_.pointwise("rope_" + n + "_add", half, a_, 2);
      k_.pointwise("rope_" + n + "_cat", 2 * half, a_, 1, 0, false);
    }
  }

  void attention(bool backward) {
    const double b = s_.batch, h = double(heads_), kv = double(kv_heads_);
    const bool causal = c_.decoder && o_.mode != Mode::decode;
    if (o_.flash_attention) {
      AttentionOp a;
      a.batch = Count(b);
      a.heads = heads_;
      a.kv_heads = kv_heads_;
      a.seq_q = Count(s_.seq_q);
      a.seq_kv = Count(s_.seq_kv);
      a.head_dim = c_.head_dim();
      a.causal = causal;
      a.dtype = kv_;
      a.backward = backward;
      a.backend = o_.attention_backend;
      k_.add(backward ? "attention_grad" : "attention", a);
      return;
    }
    // Unfused: scores = Q K^T, scale and mask, softmax, P V (K and V repeated for grouped queries).
    const double bh = b * h, sq = s_.seq_q, skv = s_.seq_kv;
    if (kv < h) {
      k_.pointwise(backward ? "repeat_kv_grad" : "repeat_kv_k", bh * skv * hd_, kv_, 1, 0, false);
      if (!backward) k_.pointwise("repeat_kv_v", bh * skv * hd_, kv_, 1, 0, false);
    }
    if (!backward) {
      k_.gemm("scores", sq, skv, hd_, t_, bh, Layout::b_transposed);
      k_.pointwise("scale_mask", bh * sq * skv, a_, causal ? 2 : 1, 2);
      k_.add("softmax", RowOp{RowOpKind::softmax, Count(bh * sq), Count(skv), t_});
      k_.gemm("pv", sq, hd_, skv, t_, bh);
    } else {
      k_.gemm("pv_grad_p", sq, skv, hd_, t_, bh, Layout::b_transposed);
      k_.gemm("pv_grad_v", skv, hd_, sq, t_, bh, Layout::a_transposed);
      k_.pointwise("softmax_grad", bh * sq * skv, a_, 2, 3);
      k_.gemm("scores_grad_q", sq, hd_, skv, t_, bh);
      k_.gemm("scores_grad_k", skv, hd_, sq, t_, bh, Layout::a_transposed);
    }
  }

  const TransformerConfig& c_;
  const GenerateOptions& o_;
  Shape s_;
  DataType t_;   // weights and GEMMs
  DataType a_;   // residual stream, norms, pointwise, activation collectives (workloads/mixed_precision.h)
  DataType kv_;  // KV cache and attention
  double d_, hd_;
  int tp_, heads_, kv_heads_;
  double q_width_, kv_width_, ffn_;
  KernelSequence k_;
  std::vector<std::string> grad_reductions_;
};

}  // namespace

namespace {

// Checks a parallel layout against the model; errors name the flag.
void check_layout(const TransformerConfig& c, const GenerateOptions& o) {
  const auto& p = o.parallel;
  auto fail = [](const std::string& flag, const std::string& message) {
    throw InputError(SourceLocation{}, flag, message);
  };
  if (c.heads % p.tp != 0)
    fail("--tp", "tensor parallelism " + std::to_string(p.tp) + " does not divide the " + std::to_string(c.heads) +
                     " attention heads of " + c.name);
  if (c.kv_heads % p.tp != 0 && p.tp % c.kv_heads != 0)
    fail("--tp", "tensor parallelism " + std::to_string(p.tp) + " neither divides nor is a multiple of the " +
                     std::to_string(c.kv_heads) + " key/value heads of " + c.name);
  if (c.ffn % p.tp != 0) fail("--tp", "tensor parallelism " + std::to_string(p.tp) + " does not divide the MLP width");
  if (c.layers % p.pp != 0)
    fail("--pp", std::to_string(p.pp) + " pipeline stages do not divide the " + std::to_string(c.layers) + " layers");
  if (p.sp && p.tp == 1) fail("--sp", "sequence parallelism needs --tp > 1");
  if (p.ep > 1 && !c.moe()) fail("--ep", c.name + " has no experts (expert parallelism is for MoE models)");
  if (p.ep > 1 && c.experts % p.ep != 0)
    fail("--ep", std::to_string(p.ep) + " does not divide the " + std::to_string(c.experts) + " experts");
  if (p.ep > p.tp * p.dp || (p.tp * p.dp) % p.ep != 0)
    fail("--ep", "expert parallelism must divide the tensor x data parallel ranks (" + std::to_string(p.tp * p.dp) + ")");
  if (o.batch % p.dp != 0)
    fail("--dp", "the batch " + std::to_string(o.batch) + " does not split over " + std::to_string(p.dp) + " replicas");
  if ((o.batch / p.dp) % p.microbatches != 0)
    fail("--microbatches", "the per-replica batch " + std::to_string(o.batch / p.dp) + " does not split into " +
                               std::to_string(p.microbatches) + " microbatches");
  if (p.zero != Zero::none && o.mode != Mode::train) fail("--zero", "ZeRO / FSDP shards training state: use --mode train");
  if (p.sp && o.mode == Mode::decode) fail("--sp", "sequence parallelism splits the sequence: not for decode");
  if (p.sp && (o.mode == Mode::decode ? 1 : o.seq) * (o.batch / p.dp / p.microbatches) % p.tp != 0)
    fail("--sp", "the tokens per microbatch do not split over the TP group");
}

}  // namespace

GeneratedModel generate_transformer(const TransformerConfig& c, const GenerateOptions& o) {
  if (!c.decoder && (o.mode == Mode::decode || o.mode == Mode::prefill))
    throw InputError(SourceLocation{}, "mode", c.name + " is an encoder: use --mode inference or train");
  if (c.decoder && o.mode == Mode::inference)
    throw InputError(SourceLocation{}, "mode", c.name + " is a decoder: use --mode prefill, decode or train");
  check_layout(c, o);
  const auto& par = o.parallel;
  const int tp = par.tp, pp = par.pp, dp = par.dp;
  // The workload is one rank's: its replica's share of the batch, one microbatch of it under
  // pipeline parallelism (all microbatches run back to back otherwise).
  const double b = double(o.batch / dp / (pp > 1 ? par.microbatches : 1));
  Shape s{};
  s.batch = b;
  if (o.mode == Mode::decode) {
    s.seq_q = 1;
    s.seq_kv = double(o.context) + 1;
    s.tokens = b;
    s.logits_rows = b;
  } else {
    s.seq_q = s.seq_kv = double(o.seq);
    s.tokens = b * double(o.seq);
    s.logits_rows = o.mode == Mode::train ? s.tokens : b;  // inference needs the last position's logits
  }
  const int stage_layers = c.layers / pp;

  TransformerBuilder builder(c, o, s);
  // Under pipeline parallelism the workload is a middle stage: it receives activations, runs its
  // layers and sends them on (the first stage's embedding and the last stage's head are left out).
  if (pp > 1) builder.pipeline_transfer("recv_activations", CollectiveKind::recv);
  else builder.embeddings();
  for (int l = 0; l < stage_layers; ++l) builder.layer_forward(l);
  if (pp > 1) builder.pipeline_transfer("send_activations", CollectiveKind::send);
  else builder.head();
  GeneratedModel out{Workload{}, parameter_count(c), 0, 0, true, {}};
  out.world = par.world();
  const double params = out.parameters;
  const double embed_params = double(c.vocab) * c.d_model * (c.tied_embeddings ? 1 : 2);
  double stage_params = 0;  // weights on this rank
  for (int l = 0; l < stage_layers; ++l) stage_params += builder.local_layer_params(l);
  if (pp == 1) stage_params += embed_params / tp;
  else stage_params += embed_params / 2 / tp;  // the first or the last stage holds one table
  if (o.mode == Mode::train) {
    if (pp > 1) {
      out.backward_from = builder.size();
      builder.pipeline_transfer("recv_grad", CollectiveKind::recv);
    } else {
      builder.loss();
    }
    for (int l = stage_layers - 1; l >= 0; --l) {
      builder.layer_backward(l);
      if (pp == 1) {
        const double shard = par.zero != Zero::none ? double(dp) : 1.0;
        const auto& reductions = builder.grad_reductions();
        builder.optimizer_after(builder.local_layer_params(l) / shard, "l" + std::to_string(l) + ".bwd.adamw",
                                reductions.empty() ? std::string{} : reductions.back());
      }
    }
    if (pp > 1) {
      builder.pipeline_transfer("send_grad", CollectiveKind::send);
      out.tail_from = builder.size();
      builder.tail_grad_reduction(stage_params);
      builder.optimizer(stage_params / (par.zero != Zero::none ? dp : 1), "adamw");
    } else {
      builder.optimizer(embed_params / tp / (par.zero != Zero::none ? dp : 1), "embed.adamw");
    }
    builder.zero_param_gather(stage_params / dp);
  }

  // Useful work for the whole job: 2 FLOPs per active weight per token forward (embeddings
  // excluded), plus attention scores; training triples it. Each GPU does its share.
  const double global_tokens = o.mode == Mode::decode ? double(o.batch) : double(o.batch) * double(o.seq);
  const double global_logits = o.mode == Mode::train ? global_tokens : double(o.batch);
  const double active = active_parameter_count(c);
  const double matmul_params = active - embed_params + (c.decoder ? double(c.vocab) * c.d_model : 0);
  const double causal = c.decoder && o.mode != Mode::decode ? 0.5 : 1.0;
  const double attention = 4.0 * c.layers * s.seq_kv * c.heads * c.head_dim() * causal;  // per query token
  const double forward_per_token = 2 * matmul_params + attention;
  double useful = (o.mode == Mode::train ? 3 : 1) * forward_per_token * global_tokens;
  if (o.mode != Mode::train)
    useful -= 2.0 * c.vocab * c.d_model * (global_tokens - global_logits) * (c.decoder ? 1 : 0);
  out.useful_flops = useful / out.world;
  out.items = global_tokens;

  // Memory on one GPU.
  const double e = bytes_per_element(o.dtype);
  auto& m = out.memory;
  const bool zero3 = par.zero == Zero::full;
  m.weights = stage_params * e / (zero3 ? dp : 1);
  const int kv_local = c.kv_heads >= tp ? c.kv_heads / tp : 1;
  const double kv_bytes_per_token =
      2.0 * stage_layers * kv_local * c.head_dim() * bytes_per_element(kv_cache_dtype(o.dtype));
  if (o.mode == Mode::train) {
    m.gradients = stage_params * e / (par.zero >= Zero::os_grad ? dp : 1);
    m.optimizer = stage_params * (8 + (e < 4 ? 4 : 0)) / (par.zero != Zero::none ? dp : 1);
    // Saved per token per layer: layer input, norms, QKV, attention output, MLP inputs and the
    // activation (flash attention keeps no score matrix). TP splits the head and MLP parts;
    // sequence parallelism splits the rest too.
    const double d = double(c.d_model);
    const double ffn = c.moe() ? double(c.expert_ffn) * (c.experts_per_token + c.shared_experts) : double(c.ffn);
    const double qkv = (c.heads + 2.0 * c.kv_heads) * c.head_dim();
    const double replicated = 4 * d + 2 * d;
    const double split = qkv + (c.swiglu ? 3 : 2) * ffn;
    const double per_token_layer = (replicated / (par.sp ? tp : 1) + split / tp) * e;
    const double scores = o.flash_attention ? 0 : double(c.heads) / tp * s.seq_kv * e * 2;
    const double full = (per_token_layer + scores) * s.tokens;
    // 1F1B: the first stage holds the activations of up to `pp` microbatches in flight.
    const double in_flight = pp > 1 ? std::min(par.microbatches, pp) : 1;
    m.activations = (o.recompute ? (d * e * s.tokens * stage_layers + full) : full * stage_layers) * in_flight;
    if (pp == 1) m.activations += s.tokens * std::ceil(double(c.vocab) / tp) * 4 * 2;  // fp32 logits and gradient
  } else {
    const double sequences = double(o.batch / dp);  // every microbatch's cache stays resident
    m.kv_cache = kv_bytes_per_token * sequences * (o.mode == Mode::decode ? s.seq_kv : s.seq_q);
    const double widest = std::max({double(c.ffn) / tp * (c.swiglu ? 2 : 1), double(c.d_model) * 3,
                                    o.flash_attention ? 0.0 : double(c.heads) / tp * s.seq_kv});
    m.activations = 2 * s.tokens * widest * bytes_per_element(activation_dtype(o.dtype)) + (pp == 1 ? s.logits_rows * std::ceil(double(c.vocab) / tp) * 4 : 0);
  }
  m.workspace = 0.5e9 + 64e6;  // CUDA context and allocator slack, cuBLAS/cuDNN workspaces
  if (par.world() > 1) m.workspace += 0.5e9;  // NCCL buffers and communicators (assumption)
  (void)params;

  std::string name = c.name + "-" + std::string(mode_name(o.mode)) + "-b" + std::to_string(o.batch);
  name += o.mode == Mode::decode ? "-c" + std::to_string(o.context) : "-s" + std::to_string(o.seq);
  if (tp > 1) name += "-tp" + std::to_string(tp) + (par.sp ? "sp" : "");
  if (pp > 1) name += "-pp" + std::to_string(pp) + "m" + std::to_string(par.microbatches);
  if (dp > 1) name += "-dp" + std::to_string(dp) + (par.zero != Zero::none ? std::string("-") + std::string(zero_name(par.zero)) : "");
  if (par.ep > 1) name += "-ep" + std::to_string(par.ep);
  out.workload = Workload::build(name, o.launch, builder.take());
  return out;
}

}  // namespace gpucast::wl
