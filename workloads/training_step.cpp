#include "workloads/training_step.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <utility>

#include "common/errors.h"
#include "workloads/cat_copy.h"
#include "workloads/kernel_sequence.h"
#include "workloads/softmax_backward.h"

namespace gpucast::wl {
namespace {

using HC = HostCategory;
constexpr double kChunk = 65536;  // multi_tensor_apply chunk size (elements)
constexpr int kMaxBlocks = 320;   // blocks per multi_tensor_apply launch
constexpr int kMaxTensors[5] = {110, 64, 48, 36, 30};
// DistributedDataParallel's bucket caps: dist._DEFAULT_FIRST_BUCKET_BYTES and bucket_cap_mb = 25
// (torch/nn/parallel/distributed.py; library facts).
constexpr double kDdpFirstBucketCapBytes = 1024.0 * 1024.0;
constexpr double kDdpBucketCapBytes = 25.0 * 1024.0 * 1024.0;
constexpr int kCommStream = 1;  // NCCL's stream beside the compute stream
// FSDP2 (fully_shard): all-gathers and reduce-scatters each on a stream of their own.
constexpr int kAllGatherStream = 2;
constexpr int kReduceScatterStream = 3;
// Each FSDP2 hook's share of a group's host time per step: the profiled 1B step's medians on 4 H100s
// (FSDP::pre_forward 1.52 ms, post_forward 0.11, pre_backward 1.40, post_backward 1.17 + 0.11 with the
// reshard; validation/runs/h100x4/dp-train/run3/trace-1b-b2-fsdp.json.gz), normalized.
constexpr double kFsdpPreForwardShare = 0.35;
constexpr double kFsdpPostForwardShare = 0.03;
constexpr double kFsdpPreBackwardShare = 0.32;
constexpr double kFsdpPostBackwardShare = 0.30;

class StepBuilder {
 public:
  StepBuilder(const TransformerConfig& c, const GenerateOptions& o)
      : c_(c),
        o_(o),
        T_(double(o.batch) * double(o.seq)),
        d_(double(c.d_model)),
        hd_(double(c.head_dim())),
        q_(double(c.heads) * hd_),
        kv_(double(c.kv_heads) * hd_),
        ffn_(double(c.ffn)),
        V_(double(c.vocab)) {
    switch (o.precision) {
      case Precision::amp:
        P_ = DataType::fp32, C_ = DataType::bf16, R_ = DataType::fp32;
        break;
      case Precision::fp16:
        P_ = C_ = R_ = DataType::fp16;
        break;
      case Precision::fp32:
        P_ = C_ = R_ = DataType::fp32;
        break;
      default:
        P_ = C_ = R_ = DataType::bf16;
        break;
    }
    amp_ = o.precision == Precision::amp;
    ddp_ = o.parallel.dp > 1 && o.parallel.zero == Zero::none;
    fsdp_ = o.parallel.dp > 1 && o.parallel.zero == Zero::full;
  }

  // ---- host annotations -------------------------------------------------------------------------
  void module(double n = 1) { pending_.add(HC::module_call, n); }
  // aten ops that launch nothing; with grad enabled each also records its autograd node (views too)
  void dispatch(double n = 1) {
    pending_.add(HC::op_dispatch, n);
    if (grad_) pending_.add(HC::grad_record, n);
  }
  void node(double n = 1) { pending_.add(HC::autograd_node, n); }  // backward nodes that launch nothing

  // A forward kernel: one aten op from Python and its launch.
  void fwd(const std::string& name, Op op, bool library = false) {
    pending_.add(HC::op_dispatch).add(HC::launch);
    if (grad_) pending_.add(HC::grad_record);
    if (library) pending_.add(HC::library_call);
    emit(name, std::move(op));
  }
  // A backward kernel run by the autograd engine; `new_node`: it starts a new backward node.
  void bwd(const std::string& name, Op op, bool new_node = true, bool library = false) {
    if (new_node) pending_.add(HC::autograd_node);
    pending_.add(HC::launch);
    if (library) pending_.add(HC::library_call);
    emit(name, std::move(op));
  }

  // ---- op shapes ----------------------------------------------------------------------------------
  static Op ew(double n, DataType in, DataType out, int inputs = 1, double flops = 1,
               bool contiguous = true) {
    ElementwiseOp e;
    e.elements = Count(std::llround(std::max(1.0, n)));
    e.dtype = in;
    e.out_dtype = out;
    e.inputs = inputs;
    e.flops_per_element = flops;
    e.contiguous = contiguous;
    return e;
  }
  // `x * y` where y is broadcast over x (rstd [rows, 1], a weight [cols], RoPE's cos/sin [seq, hd]
  // over [b, h, seq, hd]): PyTorch's strided elementwise_kernel, y's elements from the L2 (the
  // kernel names and shapes of validation/runs/h100-sxm/trace-llama*-train.json.gz).
  static Op bcast(double n, DataType in, DataType out, int inputs = 1, double flops = 1) {
    Op op = ew(n, in, out, inputs, flops, false);
    std::get<ElementwiseOp>(op).broadcast_inputs = 1;
    return op;
  }
  // rotate_half's torch.cat of [b, h, s, hd] halves (one a strided view): CatArrayBatchedCopy, its
  // index division per dimension (workloads/cat_copy.h).
  Op rope_cat(double n) const { return ew(n, C_, C_, 1, kCatDivisionFlopsPerDim * 4, false); }
  // The residual add: under autocast the stream is fp32 and the branch's output (o_proj, down_proj,
  // c_proj) bf16, so PyTorch adds mixed types through its dynamic-cast kernel.
  Op residual_add() const {
    Op op = ew(T_ * d_, R_, R_, 2);
    std::get<ElementwiseOp>(op).mixed_types = R_ != C_;
    return op;
  }
  static Op reduce(double rows, double cols, DataType t) {
    return RowOp{RowOpKind::reduce, Count(std::llround(std::max(1.0, rows))),
                 Count(std::llround(std::max(1.0, cols))), t};
  }
  // C[m,n] = A[m,k] B[k,n]; `ta`/`tb`: A/B stored transposed (GemmOp::transpose_a/transpose_b).
  static Op mm(double m, double n, double k, DataType t, bool ta = false, bool tb = false) {
    return GemmOp{Count(std::llround(m)), Count(std::llround(n)), Count(std::llround(k)), 1, t, t, ta, tb};
  }
  // nn.Linear's three GEMMs: the forward x @ W^T (W stored [out, in]), the input gradient g @ W and
  // the weight gradient g^T @ x.
  static Op linear_fwd(double rows, double in, double out, DataType t) {
    return mm(rows, out, in, t, false, true);
  }
  static Op linear_dgrad(double rows, double in, double out, DataType t) { return mm(rows, in, out, t); }
  static Op linear_wgrad(double rows, double in, double out, DataType t) {
    return mm(out, in, rows, t, true, false);
  }
  // x.to(to): a kernel when the type changes, else only the call.
  void cast(const std::string& name, double n, DataType from, DataType to, bool backward = false) {
    if (from == to) {
      backward ? node() : dispatch();
      return;
    }
    backward ? bwd(name, ew(n, from, to, 1, 0)) : fwd(name, ew(n, from, to, 1, 0));
  }

  // ---- forward ----------------------------------------------------------------------------------
  void rmsnorm(const std::string& p) {
    const double n = T_ * d_;
    module();
    cast(p + "float", n, R_, DataType::fp32);
    fwd(p + "pow", ew(n, DataType::fp32, DataType::fp32));
    fwd(p + "mean", reduce(T_, d_, DataType::fp32));
    fwd(p + "add_eps", ew(T_, DataType::fp32, DataType::fp32));
    fwd(p + "rsqrt", ew(T_, DataType::fp32, DataType::fp32, 1, 4));
    fwd(p + "mul", bcast(n, DataType::fp32, DataType::fp32));  // h * rstd[rows, 1]
    cast(p + "to_dtype", n, DataType::fp32, R_);
    fwd(p + "weight_mul", bcast(n, R_, R_));  // weight[cols] * h
  }
  // nn.Linear under autocast: the input cast (when not already 16-bit), the weight cast, the GEMM.
  void linear(const std::string& name, double in, double out, DataType x) {
    module();
    if (amp_) {  // autocast's cached_cast of (input, weight), evaluated right to left (GCC): the
                 // weight's cast first, as in the traces
      fwd(name + ".cast_w", ew(in * out, P_, C_, 1, 0));
      cast(name + ".cast_in", T_ * in, x, C_);
    }
    fwd(name, linear_fwd(T_, in, out, C_), true);
  }
  void rope(const std::string& p, const std::string& which, double width) {
    const double n = T_ * width;
    // q (a transposed view) * cos (broadcast), q * sin the same way
    fwd(p + "rope_" + which + "_mul_cos", bcast(n, C_, C_));
    dispatch();  // chunk
    fwd(p + "rope_" + which + "_neg", ew(n / 2, C_, C_, 1, 1, false));
    fwd(p + "rope_" + which + "_cat", rope_cat(n));
    fwd(p + "rope_" + which + "_mul_sin", bcast(n, C_, C_));
    fwd(p + "rope_" + which + "_add", ew(n, C_, C_, 2, 1, false));  // operands of different layouts
  }
  void attention_forward(const std::string& p) {
    module();  // Attention
    for (const auto& [name, width] :
         {std::pair<const char*, double>{"q_proj", q_}, {"k_proj", kv_}, {"v_proj", kv_}}) {
      linear(p + name, d_, width, R_);
      dispatch(2);  // view, transpose
    }
    dispatch(4);  // cos[:s], sin[:s] and their [None, None]
    const double table = double(o_.seq) * hd_;
    cast(p + "rope_cos_to", table, DataType::fp32, C_);
    cast(p + "rope_sin_to", table, DataType::fp32, C_);
    rope(p, "q", q_);
    rope(p, "k", kv_);
    if (c_.kv_heads < c_.heads) {
      dispatch(2);  // expand
      fwd(p + "repeat_kv_k", ew(T_ * q_, C_, C_, 1, 0, false));
      fwd(p + "repeat_kv_v", ew(T_ * q_, C_, C_, 1, 0, false));
    }
    fwd(p + "sdpa", attention_op(false), true);
    dispatch(2);  // transpose, reshape: SDPA's output is [b, s, h, hd] in memory, so no copy
    linear(p + "o_proj", q_, d_, C_);
  }
  void layer_forward(int l) {
    const std::string p = "l" + std::to_string(l) + ".";
    module();  // Block
    rmsnorm(p + "input_norm.");
    attention_forward(p);
    fwd(p + "residual1", residual_add());
    rmsnorm(p + "post_norm.");
    module();  // MLP
    linear(p + "gate_proj", d_, ffn_, R_);
    linear(p + "up_proj", d_, ffn_, R_);
    fwd(p + "silu", ew(T_ * ffn_, C_, C_, 1, 4));
    fwd(p + "silu_mul", ew(T_ * ffn_, C_, C_, 2));
    linear(p + "down_proj", ffn_, d_, C_);
    fwd(p + "residual2", residual_add());
  }
  void forward(const std::string& micro) {
    grad_ = o_.mode == Mode::train;  // the training forward records the autograd graph
    forward_ops(micro);
    grad_ = false;
  }
  void forward_ops(const std::string& micro) {
    k_.scope(micro);
    if (fsdp_) fsdp_copy_out("root.", root_numel_, fsdp_gather("root.", root_numel_, kFsdpPreForwardShare));
    module();  // the model
    if (!gpt()) {
      fwd("embed", EmbeddingOp{c_.vocab, c_.d_model, Count(T_), P_}, true);
    } else {  // token and learned position embeddings (torch.arange for the positions), summed
      fwd("positions_arange", ew(double(o_.seq), DataType::fp32, DataType::fp32, 0, 0));
      fwd("wte", EmbeddingOp{c_.vocab, c_.d_model, Count(T_), P_}, true);
      module();
      fwd("wpe", EmbeddingOp{c_.max_positions, c_.d_model, Count(o_.seq), P_}, true);
      fwd("add_positions", ew(T_ * d_, P_, R_, 2));
    }
    for (int l = 0; l < c_.layers; ++l) {
      k_.scope(micro);
      const std::string g = "l" + std::to_string(l) + ".";
      if (fsdp_) fsdp_copy_out(g, block_numel_[l], fsdp_gather(g, block_numel_[l], kFsdpPreForwardShare));
      gpt() ? gpt_layer_forward(l) : layer_forward(l);
      if (fsdp_) pending_.add(HC::fsdp_group, kFsdpPostForwardShare);  // reshard: frees, launches nothing
    }
    k_.scope(micro);
    gpt() ? layernorm("ln_f.") : rmsnorm("final_norm.");
    linear("lm_head", d_, V_, R_);
    if (o_.mode != Mode::train) return;  // a forward returning every position's logits
    // F.cross_entropy: log_softmax over the 16-bit logits, then (autocast's fp32 nll_loss) the
    // log-probabilities' upcast, the loss in fp32: cunn_SoftMaxForward<8, BFloat16, float, BFloat16>
    // and a direct_copy to float in the traces. Pure 16-bit: all in the logits' type.
    dispatch(2);  // views
    fwd("log_softmax", RowOp{RowOpKind::softmax, Count(T_), Count(V_), C_});
    cast("log_probs_to_fp32", T_ * V_, C_, L());
    fwd("nll_loss", reduce(1, T_, L()));
    if (o_.grad_accum > 1) fwd("loss_div_accum", ew(1, L(), L()));
  }

  // ---- GPT-2 (calibration/runs/common.py GPT) -------------------------------------------------
  // nn.LayerNorm: one kernel; autocast runs layer_norm in fp32 (fp32 in and out under amp).
  void layernorm(const std::string& p) {
    module();
    fwd(p + "layer_norm", RowOp{RowOpKind::layernorm, Count(std::llround(T_)), Count(std::llround(d_)), R_},
        true);
  }
  // nn.Linear with a bias: F.linear flattens the 3-D input into one addmm inside aten (no Python
  // op; cuBLASLt, the bias in the epilogue); autocast also casts the bias.
  void linear_bias(const std::string& name, double in, double out, DataType x) {
    module();
    if (amp_) {
      cast(name + ".cast_in", T_ * in, x, C_);
      fwd(name + ".cast_w", ew(in * out, P_, C_, 1, 0));
      fwd(name + ".cast_b", ew(out, P_, C_, 1, 0));
    }
    fwd(name, linear_fwd(T_, in, out, C_), true);
  }
  void gpt_layer_forward(int l) {
    const std::string p = "l" + std::to_string(l) + ".";
    module();  // Block
    layernorm(p + "ln_1.");
    module();  // attention
    linear_bias(p + "c_attn", d_, 3 * d_, R_);
    dispatch(7);  // split, three views, three transposes
    fwd(p + "sdpa", attention_op(false), true);
    dispatch(2);  // transpose, reshape: SDPA's output is [b, s, h, hd] in memory, so no copy
    linear_bias(p + "attn.c_proj", d_, d_, C_);
    fwd(p + "residual1", residual_add());
    layernorm(p + "ln_2.");
    linear_bias(p + "c_fc", d_, ffn_, R_);
    module();  // nn.GELU(approximate="tanh")
    fwd(p + "gelu", ew(T_ * ffn_, C_, C_, 1, 10));
    linear_bias(p + "mlp.c_proj", ffn_, d_, C_);
    fwd(p + "residual2", residual_add());
  }
  void linear_bias_backward(const std::string& name, double in, double out, DataType x) {
    bwd(name + ".dgrad", linear_dgrad(T_, in, out, C_), true, true);
    bwd(name + ".wgrad", linear_wgrad(T_, in, out, C_), false, true);
    bwd(name + ".bgrad_sum", reduce(out, T_, C_), false);
    if (amp_) {
      bwd(name + ".wgrad_to_fp32", ew(in * out, C_, P_, 1, 0));
      bwd(name + ".bgrad_to_fp32", ew(out, C_, P_, 1, 0));
      cast(name + ".dgrad_to_input", T_ * in, C_, x, true);
    }
    accumulate_grad(name + ".weight", in * out);
    accumulate_grad(name + ".bias", out);
  }
  // layer_norm_backward: the input-gradient kernel and the weight/bias-gradient reduction.
  void layernorm_backward(const std::string& p) {
    const double n = T_ * d_;
    bwd(p + "layer_norm_grad_input", ew(n, R_, R_, 2, 8), true, true);
    bwd(p + "layer_norm_grad_weight_bias", reduce(2 * d_, T_, DataType::fp32), false);
    accumulate_grad(p + "weight", d_);
    accumulate_grad(p + "bias", d_);
  }
  void gpt_layer_backward(int l) {
    const std::string p = "l" + std::to_string(l) + ".bwd.";
    const double n = T_ * d_;
    if (amp_) bwd(p + "residual2_grad_to_bf16", ew(n, R_, C_, 1, 0));
    linear_bias_backward(p + "mlp.c_proj", ffn_, d_, C_);
    bwd(p + "gelu_grad", ew(T_ * ffn_, C_, C_, 2, 15));
    linear_bias_backward(p + "c_fc", d_, ffn_, R_);
    layernorm_backward(p + "ln_2.");
    bwd(p + "residual_grad_accumulate1", ew(n, R_, R_, 2));
    if (amp_) bwd(p + "residual1_grad_to_bf16", ew(n, R_, C_, 1, 0));
    linear_bias_backward(p + "attn.c_proj", d_, d_, C_);
    node(2);  // reshape, transpose: SDPA's backward takes the gradient's strides, no copy
    bwd(p + "sdpa_grad", attention_op(true), true, true);
    node(6);                                                    // transposes and views of q, k, v
    bwd(p + "split_grad_cat", ew(3 * n, C_, C_, 1, 0, false));  // SplitBackward: the three grads into one
    linear_bias_backward(p + "c_attn", d_, 3 * d_, R_);
    layernorm_backward(p + "ln_1.");
    bwd(p + "residual_grad_accumulate2", ew(n, R_, R_, 2));
  }
  // embedding_dense_backward: a zeroed weight gradient, then one kernel over the rows for up to
  // 3072 indices, else sort the indices, segment offsets, per-segment sums, scatter.
  void embedding_backward(const std::string& name, double rows, double indices) {
    bwd(name + "_grad_zero", ew(rows * d_, P_, P_, 0));
    if (indices <= 3072) {
      bwd(name + "_grad_rows", ew(indices * d_, P_, P_, 1), false);
      return;
    }
    for (int i = 0; i < 6; ++i)
      bwd(name + "_grad_sort" + std::to_string(i), ew(2 * indices, DataType::fp32, DataType::fp32, 2), false);
    for (int i = 0; i < 4; ++i)
      bwd(name + "_grad_segments" + std::to_string(i), ew(indices, DataType::fp32, DataType::fp32, 2), false);
    bwd(name + "_grad_segment_sums", ew(indices * d_, C_, DataType::fp32, 1), false);
    bwd(name + "_grad_scatter", ew(indices * d_, DataType::fp32, P_, 1), false);
  }

  // ---- backward ---------------------------------------------------------------------------------
  void linear_backward(const std::string& name, double in, double out, DataType x) {
    // MmBackward0 runs the weight gradient first, then the input gradient (the traces' order).
    // The weight gradient grad_out^T @ x: grad_out stored transposed, so an odd vocabulary leaves the
    // lm_head's A unaligned (models/gemm_alignment.h).
    bwd(name + ".wgrad", linear_wgrad(T_, in, out, C_), true, true);
    bwd(name + ".dgrad", linear_dgrad(T_, in, out, C_), false, true);
    if (amp_) {
      cast(name + ".dgrad_to_input", T_ * in, C_, x, true);
      bwd(name + ".wgrad_to_fp32", ew(in * out, C_, P_, 1, 0));  // ToCopyBackward of the weight cast
    }
    accumulate_grad(name, in * out);
  }
  void accumulate_grad(const std::string& name, double numel) {
    if (micro_ == 0) {
      node();  // AccumulateGrad: the first micro-step's gradient becomes .grad (set_to_none)
    } else {
      bwd(name + ".grad_accumulate", ew(numel, P_, P_, 2));
    }
    param_ready(name, numel);
  }

  // ---- data parallelism (DistributedDataParallel) -------------------------------------------------
  // DDP's Reducer, as PyTorch runs it by default: when a parameter's gradient is final (the last
  // micro-step; earlier ones run under no_sync), its autograd hook copies it into the parameter's
  // bucket scaled by 1/world (one mul kernel: Reducer::mark_variable_ready_dense's at::mul_out).
  // Buckets follow the order gradients become ready (rebuilt after the first step): the first
  // closes at 1 MiB, the others at 25 MiB, a bucket closing once it reaches its cap
  // (compute_bucket_assignment_by_size), so a parameter larger than the cap has a bucket of its own.
  // A full bucket is all-reduced on the communication stream (stream 1) while backward goes on; the
  // step waits for the last one before the optimizer (finalize_backward). The 1B model's step on
  // 4 H100s: 147 mul kernels, 66 all-reduces (validation/runs/h100x4/dp-train/trace-1b-b2-ddp.json.gz).
  void param_ready(const std::string& name, double numel) {
    if (!ddp_ || micro_ != o_.grad_accum - 1) return;
    pending_.add(HC::op_dispatch).add(HC::launch);
    emit(name + ".ddp_bucket_copy", ew(numel, P_, P_, 1, 1));
    bucket_bytes_ += numel * bytes_per_element(P_);
    if (bucket_bytes_ >= bucket_cap_bytes_) flush_bucket();
  }
  void flush_bucket() {
    if (bucket_bytes_ <= 0) return;
    pending_.add(HC::op_dispatch);
    emit_on(kCommStream, "ddp.all_reduce#" + std::to_string(buckets_++),
            dp_collective(CollectiveKind::all_reduce, bucket_bytes_), {out_.back().name});
    bucket_bytes_ = 0;
    bucket_cap_bytes_ = kDdpBucketCapBytes;
  }
  // Backward is over: the last bucket leaves, and the next compute kernel waits for the reductions.
  void finish_reductions() {
    if (ddp_) {
      flush_bucket();
      if (buckets_ > 0) {  // the last micro-step reduced (earlier ones run under no_sync)
        wait_for_ = last_comm_;
        copy_buckets_to_grads();
      }
    } else if (fsdp_ && micro_ == o_.grad_accum - 1 && !last_comm_.empty()) {
      wait_for_ = last_comm_;
    }
  }
  // DDP's finalize: with gradient_as_bucket_view=False (the default) Reducer::finalize_bucket_dense
  // copies every reduced bucket view back into its parameter's .grad (copy_bucket_to_grad), one
  // device-to-device memcpy per parameter on the compute stream before the optimizer. Profiled: 219
  // such copies in the 350m model's step, as many as it has parameters
  // (validation/runs/h100x2/dp-profile/, dev).
  void copy_buckets_to_grads() {
    for (size_t i = 0; i < numels_.size(); ++i) {
      pending_.add(HC::op_dispatch).add(HC::launch);
      emit("ddp.copy_bucket_to_grad#" + std::to_string(i),
           CopyOp{numels_[i] * bytes_per_element(P_), CopyKind::d2d});
    }
  }

  // ---- FSDP2 (fully_shard on every decoder block and on the root) ---------------------------------
  // As PyTorch 2.11 runs it with no mixed-precision policy (fp32 parameters, autocast in the
  // forward): before a group's forward its shards are copied into the all-gather buffer (a foreach
  // copy) and all-gathered on the all-gather stream; the compute stream copies the gathered
  // parameters out (split_with_sizes_copy) once the gather is done. Blocks free them after their
  // forward (reshard_after_forward) and gather again in backward, each block prefetching the next
  // one's; the root keeps its parameters to the end. After a group's backward its gradients are
  // copied into one buffer (chunk_cat) and reduce-scattered in fp32 on the reduce-scatter stream;
  // the optimizer steps the shards after the last. The traces' kernels: 33 all-gathers, 33 copy-outs,
  // 17 chunk_cats and reduce-scatters for the 1B model's 17 groups.
  // Returns the all-gather's name.
  std::string fsdp_gather(const std::string& g, double numel, double hook_share) {
    if (hook_share > 0) pending_.add(HC::fsdp_group, hook_share);
    const int dp = o_.parallel.dp;
    pending_.add(HC::op_dispatch).add(HC::launch);
    emit_on(kAllGatherStream, g + "fsdp_copy_in", ew(std::ceil(numel / dp), P_, P_, 1, 0), {});
    pending_.add(HC::op_dispatch);
    emit_on(kAllGatherStream, g + "fsdp_all_gather",
            dp_collective(CollectiveKind::all_gather, padded_bytes(numel)), {});
    return out_.back().name;
  }
  void fsdp_copy_out(const std::string& g, double numel, const std::string& gather) {
    pending_.add(HC::op_dispatch).add(HC::launch);
    emit_on(0, g + "fsdp_copy_out", ew(numel, P_, P_, 1, 0), {gather});
  }
  void fsdp_reduce(const std::string& g, double numel) {
    pending_.add(HC::fsdp_group, kFsdpPostBackwardShare);
    if (micro_ != o_.grad_accum - 1) return;  // earlier micro-steps keep unsharded gradients
    pending_.add(HC::op_dispatch).add(HC::launch);
    emit(g + "fsdp_chunk_cat", ew(numel, P_, P_, 1, 0));
    pending_.add(HC::op_dispatch);
    emit_on(kReduceScatterStream, g + "fsdp_reduce_scatter",
            dp_collective(CollectiveKind::reduce_scatter, padded_bytes(numel)), {out_.back().name});
  }
  // A collective over the data-parallel group in the parameters' type.
  [[nodiscard]] Op dp_collective(CollectiveKind kind, double bytes) const {
    CollectiveOp c;
    c.kind = kind;
    c.bytes = std::round(bytes);
    c.dtype = P_;
    c.ranks = o_.parallel.dp;
    return c;
  }
  // A group's gathered (or reduce-scattered) buffer: every rank's shard, dim 0 padded to whole shards.
  [[nodiscard]] double padded_bytes(double numel) const {
    const double dp = o_.parallel.dp;
    return std::ceil(numel / dp) * dp * bytes_per_element(P_);
  }
  // The groups' sizes: the root (embeddings, final norm, lm_head) and each block.
  void set_fsdp_groups(const std::vector<double>& numels) {
    const size_t first = gpt() ? 2 : 1, per = gpt() ? 12 : 9;
    double total = 0;
    for (double n : numels) total += n;
    block_numel_.assign(size_t(c_.layers), 0);
    for (size_t l = 0; l < block_numel_.size(); ++l)
      for (size_t i = first + l * per; i < first + (l + 1) * per && i < numels.size(); ++i)
        block_numel_[l] += numels[i];
    root_numel_ = total;
    for (double b : block_numel_) root_numel_ -= b;
  }
  [[nodiscard]] bool fsdp() const { return fsdp_; }
  [[nodiscard]] const std::vector<double>& block_numels() const { return block_numel_; }
  [[nodiscard]] double root_numel() const { return root_numel_; }
  void rmsnorm_backward(const std::string& p) {
    const double n = T_ * d_;
    bwd(p + "weight_mul_grad_x", bcast(n, R_, R_));  // grad * weight[cols]
    bwd(p + "weight_mul_grad_w", ew(n, R_, DataType::fp32, 2), false);
    bwd(p + "weight_grad_sum", reduce(d_, T_, DataType::fp32), false);
    accumulate_grad(p + "weight", d_);
    cast(p + "to_dtype_grad", n, R_, DataType::fp32, true);
    // MulBackward0 of h * rstd: grad * h (full), grad * rstd (rstd broadcast), rstd's sum over cols.
    bwd(p + "mul_grad_r", ew(n, DataType::fp32, DataType::fp32, 2));
    bwd(p + "mul_grad_h", bcast(n, DataType::fp32, DataType::fp32), false);
    bwd(p + "mul_grad_r_sum", reduce(T_, d_, DataType::fp32), false);
    // RsqrtBackward0: -0.5 * grad * rstd^3 as three aten ops over [rows, 1] (pow, mul, mul).
    bwd(p + "rsqrt_grad_pow", ew(T_, DataType::fp32, DataType::fp32, 1, 2));
    bwd(p + "rsqrt_grad_scale", ew(T_, DataType::fp32, DataType::fp32, 1), false);
    bwd(p + "rsqrt_grad", ew(T_, DataType::fp32, DataType::fp32, 2), false);
    node();  // add eps
    // MeanBackward1: grad[rows, 1] expanded over cols and divided by cols (reads only the broadcast).
    {
      Op mean = bcast(n, DataType::fp32, DataType::fp32);
      std::get<ElementwiseOp>(mean).inputs = 0;
      bwd(p + "mean_grad", std::move(mean));
    }
    // PowBackward0 of h.pow(2): grad * (2 * h.pow(1)); pow with exponent 1 is a copy of h (a
    // device-to-device memcpy in the traces), then the scale and the product.
    bwd(p + "pow_grad_copy", CopyOp{n * bytes_per_element(DataType::fp32), CopyKind::d2d});
    bwd(p + "pow_grad", ew(n, DataType::fp32, DataType::fp32, 1), false);
    bwd(p + "pow_grad_mul", ew(n, DataType::fp32, DataType::fp32, 2), false);
    bwd(p + "grad_accumulate", ew(n, DataType::fp32, DataType::fp32, 2));
    cast(p + "float_grad", n, DataType::fp32, R_, true);
  }
  // `contiguous_grad`: the gradient arrives contiguous in [b, h, s, hd] (K's, through repeat_kv's
  // sum), else in SDPA's [b, s, h, hd] memory, where the accumulation runs the strided kernel.
  void rope_backward(const std::string& p, const std::string& which, double width, bool contiguous_grad) {
    const double n = T_ * width;
    bwd(p + "rope_" + which + "_mul_sin_grad", bcast(n, C_, C_));
    node();  // cat
    bwd(p + "rope_" + which + "_neg_grad", ew(n / 2, C_, C_, 1, 1, false));
    bwd(p + "rope_" + which + "_unchunk", rope_cat(n));  // SplitBackward0: a cat
    bwd(p + "rope_" + which + "_mul_cos_grad", bcast(n, C_, C_));
    bwd(p + "rope_" + which + "_grad_accumulate", ew(n, C_, C_, 2, 1, contiguous_grad));
  }
  void layer_backward(int l) {
    const std::string p = "l" + std::to_string(l) + ".bwd.";
    const double n = T_ * d_;
    if (amp_) bwd(p + "residual2_grad_to_bf16", ew(n, R_, C_, 1, 0));
    linear_backward(p + "down_proj", ffn_, d_, C_);
    bwd(p + "silu_mul_grad_a", ew(T_ * ffn_, C_, C_, 2));
    bwd(p + "silu_mul_grad_b", ew(T_ * ffn_, C_, C_, 2), false);
    bwd(p + "silu_grad", ew(T_ * ffn_, C_, C_, 2, 5));
    linear_backward(p + "up_proj", d_, ffn_, R_);
    linear_backward(p + "gate_proj", d_, ffn_, R_);
    bwd(p + "mlp_in_grad_accumulate", ew(n, R_, R_, 2));
    rmsnorm_backward(p + "post_norm.");
    bwd(p + "residual_grad_accumulate1", ew(n, R_, R_, 2));
    if (amp_) bwd(p + "residual1_grad_to_bf16", ew(n, R_, C_, 1, 0));
    linear_backward(p + "o_proj", q_, d_, C_);
    node(2);  // reshape, transpose: SDPA's backward takes the gradient's strides, no copy
    bwd(p + "sdpa_grad", attention_op(true), true, true);
    const bool gqa = c_.kv_heads < c_.heads;
    if (gqa) {
      // ExpandBackward0: a sum over the repeat dimension of [b, kv, rep, s, hd], a middle one, so
      // reduce_kernel's output-vectorized form: a thread per output element adds its `rep`
      // inputs, a strided pass over them (the traces: 41 us for 2 x 8.4M bf16 on the H100).
      const int rep = c_.heads / c_.kv_heads;
      bwd(p + "repeat_kv_k_grad", ew(T_ * kv_, C_, C_, rep, 1, false));
      bwd(p + "repeat_kv_v_grad", ew(T_ * kv_, C_, C_, rep, 1, false));
    }
    rope_backward(p, "k", kv_, gqa);
    rope_backward(p, "q", q_, false);
    // The gradients reaching `.view(b, s, h, hd).transpose(1, 2)` of q and k (RoPE's backward) and,
    // under GQA, of v (repeat_kv's sum) are contiguous [b, h, s, hd] tensors: ViewBackward0's reshape
    // copies each (v's straight from SDPA is [b, s, h, hd] in memory already). The traces:
    // `ViewBackward0 > aten::reshape > aten::clone`, 2 a layer on the 125M model, 3 on the 1B.
    node(3);  // the transposes
    auto view_grad = [&](const std::string& proj, double width, bool copies) {
      if (copies)
        bwd(p + proj + ".grad_view_copy", ew(T_ * width, C_, C_, 1, 0, false));
      else
        node();
    };
    view_grad("v_proj", kv_, gqa);
    linear_backward(p + "v_proj", d_, kv_, R_);
    view_grad("k_proj", kv_, true);
    linear_backward(p + "k_proj", d_, kv_, R_);
    // x feeds q, k and v: the engine adds their input gradients as they arrive, two in-place adds.
    bwd(p + "qkv_in_grad_accumulate_a", ew(n, R_, R_, 2));
    view_grad("q_proj", q_, true);
    linear_backward(p + "q_proj", d_, q_, R_);
    bwd(p + "qkv_in_grad_accumulate_b", ew(n, R_, R_, 2));
    rmsnorm_backward(p + "input_norm.");
    bwd(p + "residual_grad_accumulate2", ew(n, R_, R_, 2));
  }
  void backward(const std::string& micro) {
    k_.scope(micro);
    bwd("loss_grad_ones", ew(1, L(), L(), 0));
    if (o_.grad_accum > 1) bwd("loss_div_grad", ew(1, L(), L()));
    bwd("nll_loss_grad_zero", ew(T_ * V_, L(), L(), 0));
    bwd("nll_loss_grad", ew(T_, L(), L()), false);
    cast("log_probs_grad_to_bf16", T_ * V_, L(), C_, true);
    bwd("log_softmax_grad", ew(T_ * V_, C_, C_, softmax_backward_reads(double(V_)), 3));
    linear_backward("lm_head", d_, V_, R_);
    gpt() ? layernorm_backward("ln_f.") : rmsnorm_backward("final_norm.");
    std::string prefetched;  // the all-gather issued ahead for the next block down
    for (int l = c_.layers - 1; l >= 0; --l) {
      k_.scope(micro);
      const std::string g = "l" + std::to_string(l) + ".bwd.";
      if (fsdp_) {
        // pre_backward: the block's parameters again (prefetched by the block above, but the first),
        // and the prefetch of the next block's.
        const std::string ag =
            prefetched.empty() ? fsdp_gather(g, block_numel_[l], kFsdpPreBackwardShare) : prefetched;
        if (!prefetched.empty()) pending_.add(HC::fsdp_group, kFsdpPreBackwardShare);
        fsdp_copy_out(g, block_numel_[l], ag);
        prefetched = l > 0 ? fsdp_gather("l" + std::to_string(l - 1) + ".bwd.", block_numel_[l - 1], 0) : "";
      }
      gpt() ? gpt_layer_backward(l) : layer_backward(l);
      if (fsdp_) fsdp_reduce(g, block_numel_[l]);
    }
    k_.scope(micro);
    if (gpt()) {  // the position embedding's gradient summed over the batch (broadcast add)
      if (o_.batch > 1) bwd("wpe_grad_batch_sum", reduce(double(o_.seq) * d_, double(o_.batch), P_));
      embedding_backward("wpe", double(c_.max_positions), double(o_.seq));
      accumulate_grad("wpe", double(c_.max_positions) * d_);
    }
    embedding_backward("embed", V_, T_);
    // A tied embedding already got lm_head's gradient: the engine adds the two.
    if (c_.tied_embeddings) {
      bwd("embed_grad_tied_add", ew(V_ * d_, P_, P_, 2), false);
      param_ready("embed", V_ * d_);
    } else {
      accumulate_grad("embed", V_ * d_);
    }
    if (fsdp_) fsdp_reduce("root.bwd.", root_numel_);
    finish_reductions();
  }

  // ---- optimizer --------------------------------------------------------------------------------
  // One foreach op over the parameter lists: its launches, its host work (the op from Python and
  // its per-tensor list handling).
  void foreach_op(const std::string& name, int depth, int inputs, int outputs, DataType t, double flops) {
    pending_.add(HC::op_dispatch).add(HC::foreach_tensor, double(numels_.size()));
    const auto launches = multi_tensor_launches(numels_, depth);
    for (size_t i = 0; i < launches.size(); ++i) {
      ElementwiseOp e;
      e.elements = Count(std::llround(launches[i]));
      e.dtype = e.out_dtype = t;
      e.inputs = inputs;
      e.outputs = outputs;
      e.flops_per_element = flops;
      pending_.add(HC::launch);
      emit("opt." + name + "#" + std::to_string(i), e);
    }
  }
  void clip_grad() {
    k_.scope("clip_grad.");
    dispatch(2);
    foreach_op("foreach_norm", 1, 1, 0, P_, 2);
    fwd("norms_stack", ew(double(numels_.size()), DataType::fp32, DataType::fp32));
    fwd("total_norm", reduce(1, double(numels_.size()), DataType::fp32));
    fwd("clip_coef", ew(1, DataType::fp32, DataType::fp32, 1, 2));
    fwd("clip_coef_clamp", ew(1, DataType::fp32, DataType::fp32));
    foreach_op("foreach_mul_grads", 1, 2, 1, P_, 1);
  }
  void optimizer() {
    k_.scope("");
    const double n = double(numels_.size());
    const DataType s = P_;  // optimizer states follow the parameters (fp32 masters under amp)
    pending_.add(HC::optimizer_step);
    switch (o_.optimizer) {
      case Optimizer::adamw:
        pending_.add(HC::optimizer_param, n);
        foreach_op("weight_decay_mul", 1, 1, 1, s, 1);
        foreach_op("exp_avg_lerp", 2, 2, 1, s, 3);
        foreach_op("exp_avg_sq_mul", 1, 1, 1, s, 1);
        foreach_op("exp_avg_sq_addcmul", 3, 2, 1, s, 3);
        foreach_op("denom_sqrt", 2, 1, 1, s, 4);
        foreach_op("denom_div", 1, 1, 1, s, 1);
        foreach_op("denom_add_eps", 1, 1, 1, s, 1);
        foreach_op("param_addcdiv", 3, 3, 1, s, 3);
        break;
      case Optimizer::adamw_fused: {
        pending_.add(HC::fused_tensor, n).add(HC::op_dispatch);
        const auto launches = multi_tensor_launches(numels_, 4);
        for (size_t i = 0; i < launches.size(); ++i) {
          ElementwiseOp e;
          e.elements = Count(std::llround(launches[i]));
          e.dtype = e.out_dtype = s;
          e.inputs = 4;
          e.outputs = 3;
          e.flops_per_element = 15;
          pending_.add(HC::launch);
          emit("opt.fused_adamw#" + std::to_string(i), e);
        }
        break;
      }
      case Optimizer::sgd:
        pending_.add(HC::optimizer_param, n / 2);
        foreach_op("sgd_add", 2, 2, 1, s, 2);
        break;
    }
    // zero_grad(set_to_none=True) launches nothing.
  }

  void set_micro(int m) { micro_ = m; }
  std::vector<Kernel> take() { return k_.take(); }
  DataType param_type() const { return P_; }
  DataType compute_type() const { return C_; }
  DataType residual_type() const { return R_; }

 private:
  DataType L() const { return amp_ || C_ == DataType::fp32 ? DataType::fp32 : C_; }  // loss math type
  bool gpt() const { return !c_.rope; }  // GPT-2 style: learned positions, LayerNorm, GELU, biases
  Op attention_op(bool backward) const {
    AttentionOp a;
    a.batch = o_.batch;
    a.heads = c_.heads;
    a.kv_heads = c_.heads;  // after repeat_kv, SDPA sees as many K/V heads as queries
    a.seq_q = a.seq_kv = o_.seq;
    a.head_dim = c_.head_dim();
    a.causal = true;
    a.dtype = C_;
    a.backward = backward;
    // PyTorch 2.11's SDPA on Hopper (bf16, is_causal) sends a one-token forward to FlashAttention-2,
    // longer ones to cuDNN: the kernel names of every profiled forward
    // (validation/runs/<gpu>/fresh/breakdown/breakdown.json).
    if (!backward && o_.seq == 1) a.backend = AttentionBackend::flash2;
    return a;
  }
  void emit(const std::string& name, Op op) { emit_on(0, name, std::move(op), {}); }
  // A kernel on `stream` after the kernels named in `after`; a compute kernel after backward's
  // reductions also waits for the last of them.
  void emit_on(int stream, const std::string& name, Op op, std::vector<std::string> after) {
    if (stream == 0 && !wait_for_.empty()) after.push_back(std::exchange(wait_for_, std::string{}));
    k_.add_on(name, std::move(op), stream, std::move(after));
    auto kernels = k_.take();
    kernels.back().host = pending_;
    pending_ = HostWork{};
    for (auto& k : kernels) out_.push_back(std::move(k));
    // KernelSequence keeps names unique within what it holds; keep ours unique across takes.
    auto& last = out_.back();
    if (!names_.insert(last.name).second) {
      last.name += "#" + std::to_string(out_.size());
      names_.insert(last.name);
    }
    if (stream == kCommStream || stream == kReduceScatterStream) last_comm_ = last.name;
  }

 public:
  std::vector<double> numels_;
  std::vector<Kernel> out_;

 private:
  const TransformerConfig& c_;
  const GenerateOptions& o_;
  double T_, d_, hd_, q_, kv_, ffn_, V_;
  DataType P_ = DataType::bf16, C_ = DataType::bf16, R_ = DataType::bf16;
  bool amp_ = false;
  bool grad_ = false;  // forward ops run with grad enabled (training forward)
  int micro_ = 0;
  // DDP (data parallel with --zero none): the open bucket and the reductions issued so far.
  bool ddp_ = false;
  bool fsdp_ = false;
  std::vector<double> block_numel_;  // FSDP2 groups: each block's parameters, and the root's
  double root_numel_ = 0;
  double bucket_bytes_ = 0;
  double bucket_cap_bytes_ = kDdpFirstBucketCapBytes;
  int buckets_ = 0;
  std::string last_comm_;  // the latest kernel on the communication stream
  std::string wait_for_;   // the next compute kernel waits for this one
  HostWork pending_;
  KernelSequence k_;
  std::set<std::string> names_;
};

}  // namespace

std::vector<double> multi_tensor_launches(const std::vector<double>& numels, int depth) {
  const int max_tensors = kMaxTensors[std::clamp(depth, 1, 5) - 1];
  std::vector<double> out;
  double elements = 0;
  int tensors = 0, blocks = 0;
  for (size_t t = 0; t < numels.size(); ++t) {
    const double n = numels[t];
    const long chunks = std::max(1L, long(std::ceil(n / kChunk)));
    ++tensors;
    for (long ch = 0; ch < chunks; ++ch) {
      elements += std::min(kChunk, n - double(ch) * kChunk);
      ++blocks;
      const bool tensors_full = tensors == max_tensors && ch == chunks - 1;
      const bool blocks_full = blocks == kMaxBlocks;
      const bool last = t == numels.size() - 1 && ch == chunks - 1;
      if (tensors_full || blocks_full || last) {
        out.push_back(elements);
        elements = 0;
        blocks = 0;
        tensors = ch == chunks - 1 ? 0 : 1;
      }
    }
  }
  return out;
}

std::vector<double> llama_parameter_numels(const TransformerConfig& c) {
  const double d = double(c.d_model), q = double(c.heads) * c.head_dim(),
               kv = double(c.kv_heads) * c.head_dim();
  const double ffn = double(c.ffn), v = double(c.vocab);
  std::vector<double> out{v * d};
  for (int l = 0; l < c.layers; ++l)
    for (double n : {d, d * q, d * kv, d * kv, q * d, d, d * ffn, d * ffn, ffn * d}) out.push_back(n);
  out.push_back(d);
  if (!c.tied_embeddings) out.push_back(v * d);
  return out;
}

std::vector<double> gpt_parameter_numels(const TransformerConfig& c) {
  const double d = double(c.d_model), ffn = double(c.ffn), v = double(c.vocab);
  std::vector<double> out{v * d, double(c.max_positions) * d};
  for (int l = 0; l < c.layers; ++l)
    for (double n : {d, d, d * 3 * d, 3 * d, d * d, d, d, d, d * ffn, ffn, ffn * d, d}) out.push_back(n);
  out.push_back(d);
  out.push_back(d);
  if (!c.tied_embeddings) out.push_back(v * d);
  return out;
}

GeneratedModel generate_training_step(const TransformerConfig& c, const GenerateOptions& o) {
  const bool llama_style = c.decoder && c.rope && c.swiglu && c.rmsnorm;
  const bool gpt_style = c.decoder && !c.rope && !c.swiglu && !c.rmsnorm && c.bias && !c.moe() &&
                         c.kv_heads == c.heads && c.head_dim() * c.heads == c.d_model;
  if (!llama_style && !gpt_style)
    throw InputError(SourceLocation{"--precision"}, "precision",
                     c.name +
                         ": the PyTorch training step (--precision) is built for Llama-style decoders "
                         "(RoPE, SwiGLU, RMSNorm) and GPT-2-style ones (learned positions, GELU, "
                         "LayerNorm, biases); use --dtype for other models");
  if (gpt_style && o.seq > c.max_positions)
    throw InputError(SourceLocation{"--seq"}, "seq",
                     c.name + ": longer than the model's learned positions (max_positions)");
  if (o.mode != Mode::train && o.mode != Mode::prefill)
    throw InputError(SourceLocation{"--precision"}, "precision", "goes with --mode train or prefill");
  // Data parallelism: the workload is one rank's, with its share of the batch.
  const auto& par = o.parallel;
  if (par.tp > 1 || par.pp > 1 || par.ep > 1 || par.sp)
    throw InputError(SourceLocation{"--precision"}, "precision",
                     "the PyTorch training step (--precision) takes data parallelism only (--dp, as "
                     "DistributedDataParallel or FSDP2); use --dtype for tensor, pipeline, sequence or "
                     "expert parallel layouts");
  if (par.dp > 1 && (par.zero == Zero::os || par.zero == Zero::os_grad))
    throw InputError(SourceLocation{"--zero"}, "zero",
                     "the PyTorch training step (--precision) runs data parallelism as "
                     "DistributedDataParallel (--zero none) or FSDP2 (--zero 3 / fsdp); use --dtype for "
                     "ZeRO-1 and ZeRO-2");
  if (o.batch % par.dp != 0)
    throw InputError(SourceLocation{"--dp"}, "dp",
                     "the batch " + std::to_string(o.batch) + " does not split over " +
                         std::to_string(par.dp) + " replicas");
  if (par.dp > 1 && o.mode != Mode::train)
    throw InputError(SourceLocation{"--dp"}, "dp",
                     "data parallelism with --precision goes with --mode train");
  GenerateOptions local = o;
  local.batch = o.batch / par.dp;
  StepBuilder b(c, local);
  b.numels_ = gpt_style ? gpt_parameter_numels(c) : llama_parameter_numels(c);
  b.set_fsdp_groups(b.numels_);
  const std::vector<double> full_numels = b.numels_;
  const bool train = o.mode == Mode::train;
  for (int m = 0; m < (train ? o.grad_accum : 0); ++m) {
    b.set_micro(m);
    const std::string micro = o.grad_accum > 1 ? "m" + std::to_string(m) + "." : "";
    b.forward(micro);
    b.backward(micro);
  }
  if (!train) b.forward("");
  // FSDP2's optimizer steps each parameter's shard (dim 0 split over the ranks, padded).
  if (b.fsdp())
    for (double& n : b.numels_) n = std::ceil(n / par.dp);
  if (train && o.clip_grad) b.clip_grad();
  if (train) b.optimizer();

  GeneratedModel out{Workload{}, 0, 0, 0, true, {}};
  double params = 0;
  for (double n : full_numels) params += n;
  out.parameters = params;
  const double T = double(local.batch) * double(o.seq);  // this rank's tokens per micro-step
  out.world = par.dp;
  out.items = T * par.dp * (train ? o.grad_accum : 1);
  // Weights that GEMMs use: all but the embedding gathers (a tied table is the lm_head too).
  const double matmul_params = params - (c.tied_embeddings ? 0 : double(c.vocab) * c.d_model) -
                               (gpt_style ? double(c.max_positions) * c.d_model : 0);
  const double attention = 4.0 * c.layers * double(o.seq) * c.heads * c.head_dim() * 0.5;
  out.useful_flops = (train ? 3 : 1) * (2 * matmul_params + attention) * out.items / par.dp;  // a GPU's share

  // Memory, bytes.
  const double p = bytes_per_element(b.param_type()), e = bytes_per_element(b.compute_type());
  const double r = bytes_per_element(b.residual_type());
  auto& mem = out.memory;
  mem.weights = params * p;
  if (o.precision == Precision::amp) mem.weights += matmul_params * e;  // autocast copies
  mem.gradients = train ? params * p : 0;
  const double states = o.optimizer == Optimizer::sgd ? 0 : 2;
  // foreach AdamW also holds the denominator list (one state's size) during the step.
  mem.optimizer = train ? params * p * (states + (o.optimizer == Optimizer::adamw ? 1 : 0)) : 0;
  const double d = double(c.d_model), ffn = double(c.ffn), q = double(c.heads) * c.head_dim();
  const double kv = double(c.kv_heads) * c.head_dim();
  // Saved per token and layer: norm inputs and fp32 internals, the casts and projections, RoPE
  // pieces, repeated K/V, attention output, the MLP's gate, up, activation and product.
  const double per_token_layer =
      gpt_style
          ? 4 * d * r + (o.precision == Precision::amp ? 2 * d * e : 0) + 3 * d * e + 2 * d * e + 2 * ffn * e
          : 2 * d * r + 2 * 2 * d * 4 + (o.precision == Precision::amp ? 5 * d * e : 0) +
                (q + 2 * kv) * e * 2 + 2 * q * e + 2 * q * e + 4 * ffn * e;
  mem.activations = train ? per_token_layer * T * c.layers : 2 * T * std::max(2 * ffn, 3 * d) * e;
  const double loss_bytes = o.precision == Precision::amp ? 4 : e;
  mem.activations += T * double(c.vocab) * (e + 2 * loss_bytes);  // logits, fp32 copy, its gradient
  mem.workspace = 0.5e9 + 64e6;
  if (par.dp > 1)
    mem.workspace += 0.5e9;  // NCCL buffers and communicators (assumption, as the other generator)
  if (par.dp > 1 && !b.fsdp()) mem.gradients += params * p;  // DDP's buckets: a second copy of every gradient
  if (b.fsdp()) {
    // Shards of the weights, gradients and states; unsharded: the root's parameters (kept from the
    // forward to its backward), two blocks' (one computing, one prefetched) and a block's gradients.
    const auto& blocks = b.block_numels();
    const double block = blocks.empty() ? 0.0 : *std::max_element(blocks.begin(), blocks.end());
    mem.weights = mem.weights / par.dp + (b.root_numel() + 2 * block) * p;
    mem.gradients = mem.gradients / par.dp + block * p;
    mem.optimizer /= par.dp;
  }

  std::string name = c.name + (train ? "-train-" : "-forward-") + std::string(precision_name(o.precision)) +
                     "-" + std::string(optimizer_name(o.optimizer)) + "-b" + std::to_string(o.batch) + "-s" +
                     std::to_string(o.seq);
  if (o.grad_accum > 1) name += "-ga" + std::to_string(o.grad_accum);
  if (par.dp > 1) name += (b.fsdp() ? "-fsdp" : "-ddp") + std::to_string(par.dp);
  if (o.clip_grad) name += "-clip";
  out.workload = Workload::build(name, o.launch, std::move(b.out_));
  return out;
}

}  // namespace gpucast::wl
