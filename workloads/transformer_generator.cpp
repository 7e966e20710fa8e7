#include "workloads/transformer_generator.h"

#include <algorithm>
#include <cmath>

#include "common/errors.h"
#include "workloads/kernel_sequence.h"

namespace gpucast::wl {
namespace {

struct Shape {
  double batch, seq_q, seq_kv, tokens, logits_rows;
};

class TransformerBuilder {
 public:
  TransformerBuilder(const TransformerConfig& c, const GenerateOptions& o, const Shape& s)
      : c_(c), o_(o), s_(s), t_(o.dtype), d_(double(c.d_model)), hd_(double(c.head_dim())),
        q_width_(double(c.heads) * hd_), kv_width_(double(c.kv_heads) * hd_) {}

  void embeddings() {
    k_.scope("");
    k_.add("embed", EmbeddingOp{c_.vocab, c_.d_model, Count(s_.tokens), t_});
    if (!c_.rope) k_.pointwise("add_positions", s_.tokens * d_, t_, 2);
    if (!c_.decoder) k_.norm("embed_norm", s_.tokens, d_, t_, false);
  }

  void layer_forward(int l) {
    k_.scope("l" + std::to_string(l) + ".");
    const double T = s_.tokens;
    k_.norm("attn_norm", T, d_, t_, c_.rmsnorm);
    k_.gemm("qkv", T, q_width_ + 2 * kv_width_, d_, t_);
    if (c_.rope) rope();
    if (o_.mode == Mode::decode) {
      // Append this step's K and V to the cache (strided copies into the cache tensors).
      k_.pointwise("kv_cache_k", T * kv_width_, t_, 1, 0, false);
      k_.pointwise("kv_cache_v", T * kv_width_, t_, 1, 0, false);
    }
    attention(false);
    // (B, heads, S, hd) -> (B, S, d): a strided copy in eager PyTorch.
    if (!o_.fused_elementwise) k_.pointwise("attn_transpose", T * q_width_, t_, 1, 0, false);
    k_.gemm("o_proj", T, d_, q_width_, t_);
    k_.pointwise("residual1", T * d_, t_, 2);
    k_.norm("mlp_norm", T, d_, t_, c_.rmsnorm);
    const double ffn = double(c_.ffn);
    if (c_.swiglu) {
      k_.gemm("gate_up", T, 2 * ffn, d_, t_);
      if (o_.fused_elementwise) {
        k_.pointwise("silu_mul", T * ffn, t_, 2, 5);
      } else {  // silu(gate) and gate * up on strided halves of the fused projection
        k_.pointwise("silu", T * ffn, t_, 1, 4, false);
        k_.pointwise("mul", T * ffn, t_, 2, 1, false);
      }
    } else {
      k_.gemm("up", T, ffn, d_, t_);
      k_.pointwise("gelu", T * ffn, t_, 1, 10);
    }
    k_.gemm("down", T, d_, ffn, t_);
    k_.pointwise("residual2", T * d_, t_, 2);
  }

  void head() {
    k_.scope("");
    if (c_.decoder) {
      k_.norm("final_norm", s_.tokens, d_, t_, c_.rmsnorm);
      k_.gemm("lm_head", s_.logits_rows, double(c_.vocab), d_, t_);
    } else {
      k_.gemm("pooler", s_.batch, d_, d_, t_);
      k_.pointwise("pooler_tanh", s_.batch * d_, t_, 1, 6);
    }
  }

  void loss() {
    k_.scope("");
    const double rows = s_.tokens, v = double(c_.vocab);
    k_.pointwise("logits_to_fp32", rows * v, t_, 1, 0);
    k_.add("cross_entropy_softmax", RowOp{RowOpKind::softmax, Count(rows), Count(v), DataType::fp32});
    k_.add("cross_entropy_loss", RowOp{RowOpKind::reduce, 1, Count(rows), DataType::fp32});
    k_.pointwise("cross_entropy_grad", rows * v, DataType::fp32, 2, 2);
    k_.gemm("lm_head_dgrad", rows, d_, v, t_);
    k_.gemm("lm_head_wgrad", v, d_, rows, t_);
    k_.pointwise("final_norm_grad", rows * d_, t_, 3, 8);
  }

  void layer_backward(int l) {
    if (o_.recompute) layer_forward(l);  // activation checkpointing reruns the layer's forward
    k_.scope("l" + std::to_string(l) + ".bwd.");
    const double T = s_.tokens, ffn = double(c_.ffn);
    const double mlp_in = c_.swiglu ? 2 * ffn : ffn;
    k_.gemm("down_dgrad", T, ffn, d_, t_);
    k_.gemm("down_wgrad", ffn, d_, T, t_);
    k_.pointwise(c_.swiglu ? "silu_mul_grad" : "gelu_grad", T * ffn, t_, c_.swiglu ? 3 : 2, 12, true,
                 c_.swiglu ? 2 : 1);
    k_.gemm("mlp_in_dgrad", T, d_, mlp_in, t_);
    k_.gemm("mlp_in_wgrad", d_, mlp_in, T, t_);
    k_.pointwise("mlp_norm_grad", T * d_, t_, 3, 8);
    k_.pointwise("residual_grad1", T * d_, t_, 2);
    k_.gemm("o_proj_dgrad", T, q_width_, d_, t_);
    k_.gemm("o_proj_wgrad", q_width_, d_, T, t_);
    attention(true);
    if (c_.rope) k_.pointwise("rope_grad", T * (q_width_ + kv_width_), t_, 3, 3);
    k_.gemm("qkv_dgrad", T, d_, q_width_ + 2 * kv_width_, t_);
    k_.gemm("qkv_wgrad", d_, q_width_ + 2 * kv_width_, T, t_);
    k_.pointwise("attn_norm_grad", T * d_, t_, 3, 8);
    k_.pointwise("residual_grad2", T * d_, t_, 2);
  }

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

  std::vector<Kernel> take() { return k_.take(); }

 private:
  void rope() {
    const double T = s_.tokens;
    if (o_.fused_elementwise) {
      k_.pointwise("rope", T * (q_width_ + kv_width_), t_, 3, 3);
      return;
    }
    // Eager rotate-half: x1*cos, x2*sin on strided halves, their difference and sum, then a cat;
    // once for the queries, once for the keys.
    for (const auto& [name, width] : {std::pair<const char*, double>{"q", q_width_}, {"k", kv_width_}}) {
      const double half = T * width / 2;
      const std::string n(name);
      k_.pointwise("rope_" + n + "_mul1", half, t_, 2, 1, false);
      k_.pointwise("rope_" + n + "_mul2", half, t_, 2, 1, false);
      k_.pointwise("rope_" + n + "_sub", half, t_, 2);
      k_.pointwise("rope_" + n + "_mul3", half, t_, 2, 1, false);
      k_.pointwise("rope_" + n + "_mul4", half, t_, 2, 1, false);
      k_.pointwise("rope_" + n + "_add", half, t_, 2);
      k_.pointwise("rope_" + n + "_cat", 2 * half, t_, 1, 0, false);
    }
  }

  void attention(bool backward) {
    const double b = s_.batch, h = double(c_.heads), kv = double(c_.kv_heads);
    const bool causal = c_.decoder && o_.mode != Mode::decode;
    if (o_.flash_attention) {
      AttentionOp a;
      a.batch = Count(b);
      a.heads = c_.heads;
      a.kv_heads = c_.kv_heads;
      a.seq_q = Count(s_.seq_q);
      a.seq_kv = Count(s_.seq_kv);
      a.head_dim = c_.head_dim();
      a.causal = causal;
      a.dtype = t_;
      a.backward = backward;
      a.backend = o_.attention_backend;
      k_.add(backward ? "attention_grad" : "attention", a);
      return;
    }
    // Unfused: scores = Q K^T, scale and mask, softmax, P V (K and V repeated for grouped queries).
    const double bh = b * h, sq = s_.seq_q, skv = s_.seq_kv;
    if (kv < h) {
      k_.pointwise(backward ? "repeat_kv_grad" : "repeat_kv_k", bh * skv * hd_, t_, 1, 0, false);
      if (!backward) k_.pointwise("repeat_kv_v", bh * skv * hd_, t_, 1, 0, false);
    }
    if (!backward) {
      k_.gemm("scores", sq, skv, hd_, t_, bh);
      k_.pointwise("scale_mask", bh * sq * skv, t_, causal ? 2 : 1, 2);
      k_.add("softmax", RowOp{RowOpKind::softmax, Count(bh * sq), Count(skv), t_});
      k_.gemm("pv", sq, hd_, skv, t_, bh);
    } else {
      k_.gemm("pv_grad_p", sq, skv, hd_, t_, bh);
      k_.gemm("pv_grad_v", skv, hd_, sq, t_, bh);
      k_.pointwise("softmax_grad", bh * sq * skv, t_, 2, 3);
      k_.gemm("scores_grad_q", sq, hd_, skv, t_, bh);
      k_.gemm("scores_grad_k", skv, hd_, sq, t_, bh);
    }
  }

  const TransformerConfig& c_;
  const GenerateOptions& o_;
  Shape s_;
  DataType t_;
  double d_, hd_, q_width_, kv_width_;
  KernelSequence k_;
};

}  // namespace

GeneratedModel generate_transformer(const TransformerConfig& c, const GenerateOptions& o) {
  if (!c.decoder && (o.mode == Mode::decode || o.mode == Mode::prefill))
    throw InputError(SourceLocation{}, "mode", c.name + " is an encoder: use --mode inference or train");
  if (c.decoder && o.mode == Mode::inference)
    throw InputError(SourceLocation{}, "mode", c.name + " is a decoder: use --mode prefill, decode or train");
  const double b = double(o.batch);
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

  TransformerBuilder builder(c, o, s);
  builder.embeddings();
  for (int l = 0; l < c.layers; ++l) builder.layer_forward(l);
  builder.head();
  GeneratedModel out{Workload{}, parameter_count(c), 0, s.tokens, true, {}};
  const double params = out.parameters;
  if (o.mode == Mode::train) {
    builder.loss();
    const double per_layer = (params - double(c.vocab) * c.d_model * (c.tied_embeddings ? 1 : 2)) / c.layers;
    for (int l = c.layers - 1; l >= 0; --l) {
      builder.layer_backward(l);
      builder.optimizer(per_layer, "l" + std::to_string(l) + ".bwd.adamw");
    }
    builder.optimizer(double(c.vocab) * c.d_model * (c.tied_embeddings ? 1 : 2), "embed.adamw");
  }

  // Useful work: 2 FLOPs per weight per token forward (embeddings excluded), plus attention
  // scores; training triples it.
  const double matmul_params = params - double(c.vocab) * c.d_model * (c.tied_embeddings ? 1 : 2) +
                               (c.decoder ? double(c.vocab) * c.d_model : 0);
  const double causal = c.decoder && o.mode != Mode::decode ? 0.5 : 1.0;
  const double attention = 4.0 * c.layers * s.seq_kv * c.heads * c.head_dim() * causal;  // per query token
  const double forward_per_token = 2 * matmul_params + attention;
  out.useful_flops = (o.mode == Mode::train ? 3 : 1) * forward_per_token * s.tokens;
  if (o.mode != Mode::train) {
    // Inference computes logits only for the last position (already counted once per token above).
    out.useful_flops -= 2.0 * c.vocab * c.d_model * (s.tokens - s.logits_rows) * (c.decoder ? 1 : 0);
  }

  // Memory.
  const double e = bytes_per_element(o.dtype);
  auto& m = out.memory;
  m.weights = params * e;
  const double kv_bytes_per_token = 2.0 * c.layers * c.kv_heads * c.head_dim() * e;
  if (o.mode == Mode::train) {
    m.gradients = params * e;
    m.optimizer = params * (8 + (e < 4 ? 4 : 0));  // fp32 moments (+ fp32 master weights)
    // Saved per token per layer: layer input, norms, QKV, attention output, MLP inputs and the
    // activation (flash attention keeps no score matrix).
    const double d = double(c.d_model), ffn = double(c.ffn);
    const double qkv = (c.heads + 2.0 * c.kv_heads) * c.head_dim();
    const double per_token_layer = (4 * d + qkv + 2 * d + (c.swiglu ? 3 : 2) * ffn) * e;
    const double scores = o.flash_attention ? 0 : double(c.heads) * s.seq_kv * e * 2;
    const double full = (per_token_layer + scores) * s.tokens;
    m.activations = o.recompute ? (d * e * s.tokens * c.layers + full) : full * c.layers;
    m.activations += s.tokens * double(c.vocab) * 4 * 2;  // fp32 logits and their gradient
  } else {
    m.kv_cache = kv_bytes_per_token * b * (o.mode == Mode::decode ? s.seq_kv : s.seq_q);
    // Working set of one layer at a time: the widest intermediate, twice (input and output).
    const double widest = std::max({double(c.ffn) * (c.swiglu ? 2 : 1), double(c.d_model) * 3,
                                    o.flash_attention ? 0.0 : double(c.heads) * s.seq_kv});
    m.activations = 2 * s.tokens * widest * e + s.logits_rows * double(c.vocab) * 4;
  }
  m.workspace = 0.5e9 + 64e6;  // CUDA context and allocator slack, cuBLAS/cuDNN workspaces

  std::string name = c.name + "-" + std::string(mode_name(o.mode)) + "-b" + std::to_string(o.batch);
  name += o.mode == Mode::decode ? "-c" + std::to_string(o.context) : "-s" + std::to_string(o.seq);
  out.workload = Workload::build(name, o.launch, builder.take());
  return out;
}

}  // namespace gpucast::wl
