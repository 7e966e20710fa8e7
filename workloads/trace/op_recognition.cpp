#include "workloads/trace/op_recognition.h"

#include <algorithm>
#include <cstdlib>
#include <sstream>
#include <unordered_set>

#include "workloads/cat_copy.h"
#include "workloads/softmax_backward.h"

namespace gpucast::trace {
namespace {

using wl::Count;

bool has(const std::string& s, const char* part) { return s.find(part) != std::string::npos; }

// The i-th argument's single tensor shape, or nullptr.
const std::vector<std::int64_t>* shape(const CpuOp& op, size_t i) {
  if (i >= op.inputs.size() || op.inputs[i].is_list || op.inputs[i].shapes.empty()) return nullptr;
  return &op.inputs[i].shapes.front();
}

DataType dtype_at(const CpuOp& op, size_t i, DataType fallback = DataType::fp32) {
  if (i >= op.inputs.size()) return fallback;
  return torch_dtype(op.inputs[i].type).value_or(fallback);
}

// A concrete scalar or the first entry of a concrete list ("[2, 2]"), when recorded.
std::optional<std::int64_t> concrete_int(const CpuOp& op, size_t i) {
  if (i >= op.inputs.size()) return std::nullopt;
  std::string s = op.inputs[i].concrete;
  s.erase(std::remove_if(s.begin(), s.end(), [](char c) { return c == '[' || c == ']' || c == ' '; }), s.end());
  if (s.empty()) return std::nullopt;
  char* end = nullptr;
  const long long v = std::strtoll(s.c_str(), &end, 10);
  if (end == s.c_str()) return std::nullopt;
  return v;
}

bool concrete_true(const CpuOp& op, size_t i) { return i < op.inputs.size() && op.inputs[i].concrete == "True"; }

std::string short_name(const std::string& name) {
  return name.rfind("aten::", 0) == 0 ? name.substr(6) : name;
}

std::optional<wl::Op> gemm(Count m, Count n, Count k, Count batch, DataType t, const std::string& kernel,
                           DataType out) {
  if (m <= 0 || n <= 0 || k <= 0 || batch <= 0) return std::nullopt;
  wl::GemmOp g;
  g.m = m;
  g.n = n;
  g.k = k;
  g.batch = batch;
  g.dtype = t;
  if (t == DataType::fp32 && has(kernel, "tf32")) g.dtype = DataType::tf32;
  g.out_dtype = out;
  return wl::Op{g};
}

// The recorded strides of tensor argument i, or nullptr.
const std::vector<std::int64_t>* strides_of(const CpuOp& op, size_t i) {
  if (i >= op.inputs.size() || op.inputs[i].is_list || op.inputs[i].strides.empty() ||
      op.inputs[i].shapes.empty() || op.inputs[i].strides.front().size() != op.inputs[i].shapes.front().size())
    return nullptr;
  return &op.inputs[i].strides.front();
}

// Whether the i-th argument's last two dimensions are stored transposed (column-major: the last
// dimension strided, the one before it of stride 1), from the recorded "Input Strides". A weight
// used as W^T by nn.Linear, or the gradient g^T of a weight gradient, arrives as such a view: its
// leading dimension is then its row count, which decides cuBLAS's alignment class
// (models/gemm_alignment.h). False when strides were not recorded.
bool stored_transposed(const CpuOp& op, size_t i) {
  const auto* strides = strides_of(op, i);
  if (!strides) return false;
  const auto& size = op.inputs[i].shapes.front();
  const auto& stride = *strides;
  if (size.size() < 2) return false;
  const size_t r = size.size() - 2, c = size.size() - 1;
  if (size[r] <= 1 || size[c] <= 1) return false;  // a vector: either layout
  return stride[r] == 1 && stride[c] != 1;
}

std::optional<wl::Op> with_layouts(std::optional<wl::Op> g, bool transpose_a, bool transpose_b) {
  if (auto* p = g ? std::get_if<wl::GemmOp>(&*g) : nullptr) {
    p->transpose_a = transpose_a;
    p->transpose_b = transpose_b;
  }
  return g;
}

std::optional<wl::Op> recognize_gemm(const std::string& n, const CpuOp& op, const std::string& kernel) {
  auto a2 = [&](size_t i) { const auto* s = shape(op, i); return s && s->size() == 2 ? s : nullptr; };
  // _addmm_activation: addmm with the activation (GELU or ReLU) fused into cuBLASLt's epilogue
  // (nn.TransformerEncoder's fast path, nn.Linear + GELU under some dispatch paths).
  if (n == "mm" || n == "addmm" || n == "_scaled_mm" || n == "_addmm_activation") {
    const size_t ia = n == "addmm" || n == "_addmm_activation" ? 1 : 0;
    const auto *a = a2(ia), *b = a2(ia + 1);
    if (!a || !b) return std::nullopt;
    const DataType t = dtype_at(op, ia);
    const DataType out = n == "_scaled_mm" ? DataType::bf16 : t;
    return with_layouts(gemm((*a)[0], (*b)[1], (*a)[1], 1, t, kernel, out), stored_transposed(op, ia),
                        stored_transposed(op, ia + 1));
  }
  if (n == "bmm" || n == "baddbmm") {
    const size_t ia = n == "baddbmm" ? 1 : 0;
    const auto *a = shape(op, ia), *b = shape(op, ia + 1);
    if (!a || !b || a->size() != 3 || b->size() != 3) return std::nullopt;
    const DataType t = dtype_at(op, ia);
    return with_layouts(gemm((*a)[1], (*b)[2], (*a)[2], (*a)[0], t, kernel, t), stored_transposed(op, ia),
                        stored_transposed(op, ia + 1));
  }
  if (n == "linear") {  // x @ W^T: the weight [out, in] is always read transposed
    const auto *x = shape(op, 0), *w = shape(op, 1);
    if (!x || !w || x->empty() || w->size() != 2) return std::nullopt;
    const DataType t = dtype_at(op, 0);
    return with_layouts(gemm(numel(*x) / std::max<Count>(1, x->back()), (*w)[0], x->back(), 1, t, kernel, t),
                        stored_transposed(op, 0), true);
  }
  if (n == "matmul") {
    const auto *a = shape(op, 0), *b = shape(op, 1);
    if (!a || !b || a->size() < 2 || b->size() < 2) return std::nullopt;
    const DataType t = dtype_at(op, 0);
    const Count k = a->back();
    if (b->size() == 2)
      return with_layouts(gemm(numel(*a) / std::max<Count>(1, k), b->back(), k, 1, t, kernel, t), false,
                          stored_transposed(op, 1));
    const Count m = (*a)[a->size() - 2];
    return with_layouts(gemm(m, b->back(), k, numel(*a) / std::max<Count>(1, m * k), t, kernel, t),
                        stored_transposed(op, 0), stored_transposed(op, 1));
  }
  return std::nullopt;
}

// SDPA variants: (name, index of the query, index of is_causal in Concrete Inputs).
struct AttentionSignature {
  const char* name;
  size_t query;
  size_t causal;
  bool backward;
};
constexpr AttentionSignature kAttention[] = {
    {"scaled_dot_product_attention", 0, 5, false},
    {"_scaled_dot_product_flash_attention", 0, 4, false},
    {"_scaled_dot_product_efficient_attention", 0, 6, false},
    {"_scaled_dot_product_cudnn_attention", 0, 6, false},
    {"_scaled_dot_product_flash_attention_backward", 1, 11, true},
    {"_scaled_dot_product_efficient_attention_backward", 1, 11, true},
    {"_scaled_dot_product_cudnn_attention_backward", 1, 14, true},
};

// The SDPA backend that ran: from the backend-specific op, else from the kernel's name
// (FlashAttention-2 kernels "flash_fwd"/"flash_bwd", the memory-efficient "fmha_cutlass", cuDNN's
// "cudnn"); the math backend launches no fused kernel and is never recognized here.
wl::AttentionBackend traced_backend(const std::string& n, const std::string& kernel) {
  if (has(n, "flash")) return wl::AttentionBackend::flash2;
  if (has(n, "efficient")) return wl::AttentionBackend::efficient;
  if (has(n, "cudnn")) return wl::AttentionBackend::cudnn;
  if (has(kernel, "flash_fwd") || has(kernel, "flash_bwd")) return wl::AttentionBackend::flash2;
  if (has(kernel, "fmha_cutlass") || has(kernel, "efficient_attention")) return wl::AttentionBackend::efficient;
  if (has(kernel, "cudnn")) return wl::AttentionBackend::cudnn;
  return wl::AttentionBackend::automatic;
}

std::optional<wl::Op> recognize_attention(const std::string& n, const CpuOp& op, const std::string& kernel) {
  for (const auto& sig : kAttention) {
    if (n != sig.name) continue;
    const auto *q = shape(op, sig.query), *k = shape(op, sig.query + 1);
    if (!q || !k || q->size() != 4 || k->size() != 4) return std::nullopt;
    wl::AttentionOp a;  // [batch, heads, seq, head_dim]
    a.batch = (*q)[0];
    a.heads = (*q)[1];
    a.seq_q = (*q)[2];
    a.head_dim = (*q)[3];
    a.kv_heads = (*k)[1];
    a.seq_kv = (*k)[2];
    a.causal = concrete_true(op, sig.causal);
    a.dtype = dtype_at(op, sig.query, DataType::bf16);
    a.backward = sig.backward;
    a.backend = traced_backend(n, kernel);
    if (a.batch <= 0 || a.heads <= 0 || a.kv_heads <= 0 || a.heads % a.kv_heads || a.seq_q <= 0 || a.seq_kv <= 0 ||
        a.head_dim <= 0)
      return std::nullopt;
    return wl::Op{a};
  }
  return std::nullopt;
}

std::optional<wl::Op> row_op(wl::RowOpKind kind, const std::vector<std::int64_t>* x, DataType t) {
  if (!x || x->empty() || x->back() <= 0) return std::nullopt;
  wl::RowOp r;
  r.kind = kind;
  r.cols = x->back();
  r.rows = numel(*x) / r.cols;
  r.dtype = t;
  if (r.rows <= 0) return std::nullopt;
  return wl::Op{r};
}

// CatArrayBatchedCopy's per-dimension index division: wl::kCatDivisionFlopsPerDim (workloads/cat_copy.h).
using wl::kCatDivisionFlopsPerDim;

// CatArrayBatchedCopy_vectorized and CatArrayBatchedCopy_aligned16_contig (Shape.cu) are chosen when
// every input is contiguous and 16-byte aligned: each thread moves one 16-byte vector
// (ALIGNED_VEC_LOAD_BYTES) per offset computation. Library fact, from PyTorch's source.
constexpr double kCatVectorBytes = 16;
bool cat_moves_vectors(const std::string& kernel) {
  return has(kernel, "CatArrayBatchedCopy_vectorized") || has(kernel, "CatArrayBatchedCopy_aligned");
}

std::optional<wl::Op> pointwise(Count elements, DataType in, DataType out, int inputs, int outputs, double flops,
                                const std::string& kernel) {
  if (elements <= 0) return std::nullopt;
  wl::ElementwiseOp e;
  e.elements = elements;
  e.dtype = in;
  e.out_dtype = out;
  e.inputs = inputs;
  e.outputs = std::max(1, outputs);
  e.flops_per_element = flops;
  // PyTorch's TensorIterator: vectorized_elementwise_kernel for contiguous tensors, the strided
  // elementwise_kernel / unrolled_elementwise_kernel otherwise.
  e.contiguous = !(has(kernel, "elementwise_kernel") && !has(kernel, "vectorized_elementwise_kernel"));
  return wl::Op{e};
}

// An expanded view (stride 0 over dimensions of size above 1: `x.expand(...)`, a mean's gradient
// spread over its row) that repeats each of its elements kExpandedReuse times or more: the kernel
// reads them from the L2, as it reads a broadcast tensor. Assumption: below that reuse the repeats
// are counted as DRAM reads (GQA's repeat_kv over 2 query heads per KV head reads half its bytes
// from the L2).
constexpr double kExpandedReuse = 4;
bool expanded(const CpuOp& op, size_t i) {
  const auto* s = shape(op, i);
  const auto* st = strides_of(op, i);
  if (!s || !st) return false;
  double repeats = 1;
  for (size_t d = 0; d < s->size(); ++d)
    if ((*st)[d] == 0) repeats *= double((*s)[d]);
  return repeats >= kExpandedReuse;
}

// The strided kernel's index dimensions, as PyTorch's TensorIterator leaves them
// (aten/src/ATen/TensorIterator.cpp: reorder_dimensions, then coalesce_dimensions): size-1
// dimensions dropped, the rest ordered by the largest tensor's strides (a new output is allocated in
// that order), and neighbours merged where every operand's outer stride is its inner stride times
// the inner size. Operands: the recorded tensors broadcast to the output's shape, plus a new dense
// output unless the op writes one of them (copy_). 0 when strides were not recorded.
int strided_index_dims(const CpuOp& op, const std::vector<std::int64_t>& out_shape, size_t largest,
                       bool writes_input) {
  const size_t rank = out_shape.size();
  std::vector<std::vector<std::int64_t>> strides;
  for (size_t i = 0; i < op.inputs.size(); ++i) {
    const auto* s = shape(op, i);
    if (!s || s->empty() || s->size() > rank) continue;
    const auto* st = strides_of(op, i);
    if (!st) return 0;
    std::vector<std::int64_t> full(rank, 0);
    for (size_t d = 0; d < s->size(); ++d) full[rank - s->size() + d] = (*s)[d] == 1 ? 0 : (*st)[d];
    strides.push_back(full);
  }
  if (strides.empty() || !strides_of(op, largest)) return 0;
  std::vector<size_t> dims;
  for (size_t d = 0; d < rank; ++d)
    if (out_shape[d] > 1) dims.push_back(d);
  const auto& ref = *strides_of(op, largest);
  std::stable_sort(dims.begin(), dims.end(), [&](size_t a, size_t b) { return ref[a] > ref[b]; });
  if (!writes_input) {  // the new output, dense in that order
    std::vector<std::int64_t> out(rank, 0);
    std::int64_t step = 1;
    for (auto it = dims.rbegin(); it != dims.rend(); ++it) {
      out[*it] = step;
      step *= out_shape[*it];
    }
    strides.push_back(out);
  }
  int groups = 0;
  size_t inner = 0;
  std::int64_t inner_size = 0;
  for (auto it = dims.rbegin(); it != dims.rend(); ++it) {
    const size_t d = *it;
    const bool merges = groups > 0 && std::all_of(strides.begin(), strides.end(), [&](const auto& o) {
                          return o[d] == o[inner] * inner_size;
                        });
    if (merges) {
      inner_size *= out_shape[d];
    } else {
      ++groups;
      inner = d;
      inner_size = out_shape[d];
    }
  }
  return groups;
}

std::optional<wl::Op> recognize_norm_softmax(const std::string& n, const CpuOp& op) {
  if (n == "native_layer_norm" || n == "layer_norm")
    return row_op(wl::RowOpKind::layernorm, shape(op, 0), dtype_at(op, 0, DataType::bf16));
  if (n == "_fused_rms_norm" || n == "rms_norm")
    return row_op(wl::RowOpKind::rmsnorm, shape(op, 0), dtype_at(op, 0, DataType::bf16));
  if (n == "_softmax" || n == "softmax" || n == "_log_softmax" || n == "log_softmax")
    return row_op(wl::RowOpKind::softmax, shape(op, 0), dtype_at(op, 0, DataType::bf16));
  // The norms' backward: the input gradient and the weight (and bias) gradients, the kernels
  // autograd runs (models/backward_kernels.h), in the dtype of the saved input (fp32 under autocast).
  if (n == "native_layer_norm_backward" || n == "_fused_rms_norm_backward") {
    auto r = row_op(n == "native_layer_norm_backward" ? wl::RowOpKind::layernorm : wl::RowOpKind::rmsnorm,
                    shape(op, 1), dtype_at(op, 1, DataType::bf16));
    if (auto* p = r ? std::get_if<wl::RowOp>(&*r) : nullptr) p->backward = true;
    return r;
  }
  // Softmax's backward: the gradient and the saved output read (the gradient twice for long rows:
  // workloads/softmax_backward.h), the input gradient written.
  if (n == "_softmax_backward_data" || n == "_log_softmax_backward_data") {
    const auto* g = shape(op, 0);
    if (!g || g->empty()) return std::nullopt;
    const DataType t = dtype_at(op, 0, DataType::bf16);
    const int reads = wl::softmax_backward_reads(double(g->back()));
    return pointwise(numel(*g), t, t, reads, 1, 4, "vectorized_elementwise_kernel");
  }
  return std::nullopt;
}

std::optional<wl::Op> conv(const std::vector<std::int64_t>* x, const std::vector<std::int64_t>* w, std::int64_t stride,
                           std::int64_t pad, DataType t, Count batch_factor) {
  if (!x || !w || x->size() != 4 || w->size() != 4) return std::nullopt;
  wl::Conv2dOp c;
  c.n = (*x)[0] * batch_factor;
  c.c = (*x)[1];
  c.h = (*x)[2];
  c.w = (*x)[3];
  c.k = (*w)[0];
  c.r = (*w)[2];
  c.s = (*w)[3];
  c.stride = std::max<std::int64_t>(1, stride);
  c.pad = std::max<std::int64_t>(0, pad);
  c.dtype = t;
  if ((*w)[1] != c.c) return std::nullopt;  // grouped/depthwise: no gpucast op
  if (c.n <= 0 || c.c <= 0 || c.h <= 0 || c.w <= 0 || c.k <= 0 || c.r <= 0 || c.s <= 0 || c.p() < 1 || c.q() < 1)
    return std::nullopt;
  return wl::Op{c};
}

// Whether the i-th argument is a 4-D tensor stored channels-last (NHWC memory, NCHW sizes): its
// recorded strides put the channel dimension innermost (stride 1) and a channel count above one.
bool is_channels_last(const CpuOp& op, size_t i) {
  const auto* strides = strides_of(op, i);
  if (!strides) return false;
  const auto& size = op.inputs[i].shapes.front();
  const auto& stride = *strides;
  if (size.size() != 4 || size[1] <= 1) return false;
  return stride[1] == 1 && stride[3] == size[1] && stride[2] == size[1] * size[3];
}

// Batch norm: inference (running statistics) is one pointwise pass; training also reads the input
// once more for the batch statistics. Its small per-channel kernels ride along in the group.
std::optional<wl::Op> recognize_batch_norm(const std::string& n, const CpuOp& op) {
  const bool eval = n == "_native_batch_norm_legit_no_training";
  if (!eval && n != "native_batch_norm" && n != "cudnn_batch_norm" && n != "_native_batch_norm_legit" &&
      n != "native_batch_norm_backward" && n != "cudnn_batch_norm_backward")
    return std::nullopt;
  const auto* x = shape(op, n.find("backward") != std::string::npos ? 1 : 0);
  if (!x) return std::nullopt;
  const DataType t = dtype_at(op, 0, DataType::bf16);
  // native_batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps)
  const bool training = !eval && (n.find("backward") != std::string::npos || concrete_true(op, 5) ||
                                  n == "_native_batch_norm_legit");
  // A channels-last activation (N, C, H, W sizes with C the stride-1 dimension): ATen's channels-last
  // kernels (models/batch_norm_model.h), with their own fixed launch. Inference always; training and
  // its backward for 16-bit activations (an fp32 one goes to cuDNN's batch norm in training).
  const bool backward = n.find("backward") != std::string::npos;
  const size_t xi = backward ? 1 : 0;
  const DataType xt = dtype_at(op, xi, DataType::bf16);
  const bool native_training = training && n != "cudnn_batch_norm" && n != "cudnn_batch_norm_backward" &&
                               (xt == DataType::bf16 || xt == DataType::fp16);
  if ((!training || native_training) && n != "cudnn_batch_norm" && x->size() == 4 &&
      is_channels_last(op, xi)) {
    wl::RowOp r;
    r.kind = wl::RowOpKind::batchnorm;
    r.rows = (*x)[0] * (*x)[2] * (*x)[3];
    r.cols = (*x)[1];
    r.dtype = xt;
    r.training = training;
    r.backward = backward;
    if (r.rows > 0 && r.cols > 0) return wl::Op{r};
  }
  return pointwise(numel(*x), t, t, training ? 2 : 1, 1, 4, "vectorized_elementwise_kernel");
}

std::optional<wl::Op> recognize_conv(const std::string& n, const CpuOp& op) {
  // (input, weight, bias, stride, padding, ...) for convolution/_convolution/conv2d;
  // cudnn_convolution(input, weight, padding, stride, ...).
  if (n == "convolution" || n == "_convolution" || n == "conv2d")
    return conv(shape(op, 0), shape(op, 1), concrete_int(op, 3).value_or(1), concrete_int(op, 4).value_or(0),
                dtype_at(op, 0, DataType::bf16), 1);
  if (n == "cudnn_convolution")
    return conv(shape(op, 0), shape(op, 1), concrete_int(op, 3).value_or(1), concrete_int(op, 2).value_or(0),
                dtype_at(op, 0, DataType::bf16), 1);
  // convolution_backward(grad_out, input, weight, bias_sizes, stride, padding, ...): data and weight
  // gradients, each the forward's work: the forward shape at twice the batch.
  if (n == "convolution_backward")
    return conv(shape(op, 1), shape(op, 2), concrete_int(op, 4).value_or(1), concrete_int(op, 5).value_or(0),
                dtype_at(op, 1, DataType::bf16), 2);
  return std::nullopt;
}

std::optional<wl::Op> recognize_embedding(const std::string& n, const CpuOp& op) {
  if (n == "embedding") {
    const auto *w = shape(op, 0), *idx = shape(op, 1);
    if (!w || !idx || w->size() != 2) return std::nullopt;
    wl::EmbeddingOp e;
    e.vocab = (*w)[0];
    e.dim = (*w)[1];
    e.tokens = numel(*idx);
    e.dtype = dtype_at(op, 0, DataType::bf16);
    if (e.vocab <= 0 || e.dim <= 0 || e.tokens <= 0) return std::nullopt;
    return wl::Op{e};
  }
  if (n == "embedding_dense_backward" || n == "embedding_backward") {
    // embedding_dense_backward(grad_output, indices, num_weights, padding_idx, scale_grad_by_freq):
    // the table's gradient from the gathered rows' gradient, as ATen runs it (models/backward_kernels.h).
    const auto *g = shape(op, 0), *idx = shape(op, 1);
    const auto rows = concrete_int(op, 2);
    if (!g || g->empty() || !idx) return std::nullopt;
    wl::EmbeddingOp e;
    e.dim = g->back();
    e.tokens = numel(*idx);
    e.vocab = rows.value_or(0);
    e.dtype = dtype_at(op, 0, DataType::bf16);
    e.backward = true;
    if (e.vocab <= 0 || e.dim <= 0 || e.tokens <= 0) {
      // Without the table's row count: one pass zeroing the gradient and adding the rows into it.
      const DataType t = e.dtype;
      return pointwise(std::max<Count>(numel(*g), 1), t, t, 1, 1, 1, "vectorized_elementwise_kernel");
    }
    return wl::Op{e};
  }
  return std::nullopt;
}

std::optional<wl::Op> recognize_optimizer(const std::string& n, const CpuOp& op, const std::string& kernel) {
  if (n.rfind("_foreach_", 0) != 0 && n != "_fused_adamw_" && n != "_fused_adam_" &&
      n != "_amp_foreach_non_finite_check_and_unscale_")
    return std::nullopt;
  Count elements = 0;
  int lists = 0;
  for (const auto& in : op.inputs) {
    if (in.type != "TensorList" && !in.is_list) continue;
    ++lists;
    if (elements == 0)
      for (const auto& s : in.shapes) elements += numel(s);
  }
  if (lists == 0) return std::nullopt;
  // Recent PyTorch records no sizes for foreach tensor lists: the caller sets the element count
  // from the kernels' grids (foreach_elements_from_grid).
  if (elements <= 0) elements = 1;
  if (n == "_fused_adamw_" || n == "_fused_adam_")  // reads param, grad, m, v; writes param, m, v
    return pointwise(elements, DataType::fp32, DataType::fp32, 4, 3, 12, kernel);
  return pointwise(elements, DataType::fp32, DataType::fp32, std::max(1, lists), 1, 2, "vectorized_elementwise_kernel");
}

const std::unordered_set<std::string>& pointwise_names() {
  static const std::unordered_set<std::string> kNames{
      "add", "add_", "sub", "sub_", "mul", "mul_", "div", "div_", "neg", "exp", "log", "sqrt", "rsqrt", "pow",
      "sigmoid", "silu", "gelu", "relu", "relu_", "tanh", "threshold_backward", "silu_backward", "gelu_backward",
      "sigmoid_backward", "tanh_backward", "where", "masked_fill", "masked_fill_", "clamp", "clamp_", "fill_",
      "zero_", "copy_", "clone", "lerp_", "addcmul_", "addcdiv_", "maximum", "minimum", "abs", "cos", "sin",
      "native_dropout", "native_dropout_backward", "eq", "ne", "lt", "gt", "ge", "le", "reciprocal", "erf",
      "hardtanh", "hardtanh_backward", "mul_scalar", "add_scalar", "cat", "_to_copy", "contiguous", "triu",
      "tril", "sign", "floor", "round", "exp_", "sqrt_", "silu_", "gelu_", "gather", "nll_loss_forward",
      "nll_loss2d_forward", "ones_like", "zeros_like", "full", "arange", "bernoulli_", "masked_scatter",
      "_softmax_backward", "lt_", "gt_", "logical_not", "bitwise_and", "isfinite", "isinf", "isnan",
      "adaptive_avg_pool2d", "mean_backward", "rsub", "square", "exp2", "log1p", "expm1", "log_sigmoid",
      "leaky_relu", "elu", "hardswish", "hardsigmoid", "mish", "softplus", "_to_copy", "addcmul", "addcdiv",
      "lerp", "index_put_", "index_add_", "scatter_add_", "scatter_", "fmod", "remainder"};
  return kNames;
}

const std::unordered_set<std::string>& reduction_names() {
  static const std::unordered_set<std::string> kNames{
      "sum", "mean", "amax", "amin", "max", "min", "norm", "linalg_vector_norm", "var_mean", "var", "std",
      "argmax", "argmin", "any", "all", "prod", "_local_scalar_dense"};
  return kNames;
}

// The dims a reduction (sum, mean, amax, ... : the dim list is its second argument) reduces, when its
// Concrete Inputs recorded them: `value` holds them when they are the trailing dims (sorted), and the
// result is empty (no value) when they include a leading dim, which no row model describes (a
// column reduction's kernel strides across rows). nullopt when not recorded.
struct ReducedDims {
  std::vector<std::int64_t> value;
  [[nodiscard]] bool empty() const { return value.empty(); }
};
std::optional<ReducedDims> reduced_dims(const std::string& n, const CpuOp& op, size_t rank) {
  static const std::unordered_set<std::string> kDimSecond{"sum", "mean", "amax", "amin", "var", "std",
                                                          "var_mean", "prod", "any", "all"};
  if (!kDimSecond.count(n) || op.inputs.size() < 2 || rank == 0) return std::nullopt;
  std::string s = op.inputs[1].concrete;
  if (s.empty() || s.front() != '[') return std::nullopt;
  std::vector<std::int64_t> dims;
  for (char& c : s)
    if (c == '[' || c == ']' || c == ',') c = ' ';
  std::istringstream in(s);
  for (std::int64_t d; in >> d;) {
    if (d < 0) d += static_cast<std::int64_t>(rank);
    if (d < 0 || d >= static_cast<std::int64_t>(rank)) return std::nullopt;
    dims.push_back(d);
  }
  if (dims.empty()) return std::nullopt;  // "[]": every dim
  std::sort(dims.begin(), dims.end());
  dims.erase(std::unique(dims.begin(), dims.end()), dims.end());
  const auto first = static_cast<std::int64_t>(rank - dims.size());
  for (size_t i = 0; i < dims.size(); ++i)
    if (dims[i] != first + static_cast<std::int64_t>(i)) return ReducedDims{};
  return ReducedDims{dims};
}

// Whether input 0's last `count` dims are one contiguous run in memory, the row a last-dim reduction
// reads (true when strides were not recorded). A channels-last activation's mean over H and W
// ([N, C, H, W] with strides [HWC, 1, WC, C]) is not: ATen reduces it with threads along the
// channels, vectorized along the output (reduce_kernel<128, 4> over [32, 4] blocks in the ResNet-50
// trace), a configuration no row model describes.
bool trailing_dims_contiguous(const CpuOp& op, size_t count) {
  const auto* st = strides_of(op, 0);
  if (!st || count == 0) return true;
  const auto& dims = op.inputs[0].shapes.front();
  std::int64_t expected = 1;
  for (size_t k = 0; k < count && k < dims.size(); ++k) {
    const size_t d = dims.size() - 1 - k;
    if (dims[d] != 1 && (*st)[d] != expected) return false;
    expected *= dims[d];
  }
  return true;
}

std::optional<wl::Op> recognize_pointwise(const std::string& n, const CpuOp& op, const std::string& kernel) {
  const bool reduce_kernel = has(kernel, "reduce_kernel");
  const bool reduction = reduction_names().count(n) > 0;
  const bool pointwise_kernel = has(kernel, "elementwise_kernel");
  // By name only: a composite op (batch norm, a loss) can launch a small pointwise kernel on
  // other tensors than its inputs, so a pointwise kernel name alone does not give the size.
  if (!pointwise_names().count(n) && !reduction) return std::nullopt;
  if (n == "nll_loss_forward" || n == "nll_loss2d_forward") {  // one element gathered per row
    const auto* target = shape(op, 1);
    if (!target) return std::nullopt;
    return pointwise(numel(*target), dtype_at(op, 0), dtype_at(op, 0), 2, 1, 1, "vectorized_elementwise_kernel");
  }
  if (n == "gather") {  // gather(self, dim, index): one element read per index
    const auto* index = shape(op, 2);
    if (!index) return std::nullopt;
    return pointwise(numel(*index), dtype_at(op, 0), dtype_at(op, 0), 2, 1, 0, "elementwise_kernel");
  }
  if (n == "cat") {
    Count total = 0;
    size_t dims = 0;
    DataType t = DataType::bf16;
    for (size_t i = 0; i < op.inputs.size(); ++i) {
      if (!op.inputs[i].is_list) continue;
      for (const auto& s : op.inputs[i].shapes) {
        total += numel(s);
        dims = std::max(dims, s.size());
      }
    }
    for (const auto& in : op.inputs)
      if (in.is_list) t = torch_dtype(in.type).value_or(t);
    // CatArrayBatchedCopy: a batched strided copy, not the vectorized pointwise kernel, whose index
    // math divides by every dimension's size (kCatDivisionFlopsPerDim). Its vectorized and aligned
    // variants (contiguous, 16-byte aligned inputs) compute that offset once per 16-byte vector.
    // Its loads and stores are then the vectorized kernel's, not the strided one's.
    if (cat_moves_vectors(kernel))
      return pointwise(total, t, t, 1, 1,
                       kCatDivisionFlopsPerDim * double(dims) * bytes_per_element(t) / kCatVectorBytes,
                       "vectorized_elementwise_kernel");
    return pointwise(total, t, t, 1, 1, kCatDivisionFlopsPerDim * double(dims), "elementwise_kernel");
  }
  // Tensor arguments: the largest sets the element count; those of that size are read in full.
  Count elements = 0;
  size_t largest = 0;
  for (size_t i = 0; i < op.inputs.size(); ++i)
    if (const auto* s = shape(op, i); s && numel(*s) > elements) {
      elements = numel(*s);
      largest = i;
    }
  if (elements <= 0) return std::nullopt;
  if (reduction || (reduce_kernel && !pointwise_kernel)) {
    const auto* x = shape(op, largest);
    if (reduction && largest == 0 && x) {
      const auto dims = reduced_dims(n, op, x->size());
      if (dims && dims->empty()) return std::nullopt;  // over leading dims: not a row reduction
      if (dims && !dims->value.empty()) {
        if (!trailing_dims_contiguous(op, dims->value.size())) return std::nullopt;  // strided rows
        // Over the trailing dims: a row per leading index, a row's length their product.
        wl::RowOp r;
        r.kind = wl::RowOpKind::reduce;
        r.cols = 1;
        for (size_t d = x->size() - dims->value.size(); d < x->size(); ++d) r.cols *= (*x)[d];
        r.rows = r.cols > 0 ? numel(*x) / r.cols : 0;
        r.dtype = dtype_at(op, 0);
        if (r.rows <= 0 || r.cols <= 0) return std::nullopt;
        return wl::Op{r};
      }
    }
    if (largest == 0 && !trailing_dims_contiguous(op, 1)) return std::nullopt;
    return row_op(wl::RowOpKind::reduce, shape(op, largest), dtype_at(op, largest));
  }
  // Smaller tensors (of rank 1 or more: 0-dim ones are scalars the kernel takes as arguments) are
  // broadcast over the largest: PyTorch's strided kernel loads one of their elements per output
  // element, from the L2.
  int inputs = 0, broadcast = 0;
  for (size_t i = 0; i < op.inputs.size(); ++i)
    if (const auto* s = shape(op, i); s && numel(*s) == elements && expanded(op, i)) {
      ++broadcast;  // an expanded view of a much smaller tensor: its elements come from the L2
    } else if (s && numel(*s) == elements) {
      ++inputs;
    } else if (s && !s->empty() && numel(*s) > 0 && torch_dtype(op.inputs[i].type)) {
      ++broadcast;
    }
  DataType in = dtype_at(op, largest), out = in;
  if (n == "copy_") {  // copy_(self = destination, src)
    in = dtype_at(op, 1, in);
    out = dtype_at(op, 0, in);
    inputs = 1;
  } else if (n == "fill_" || n == "zero_") {
    inputs = 0;
  } else if (n == "eq" || n == "ne" || n == "lt" || n == "gt" || n == "ge" || n == "le") {
    out = DataType::int8;
  }
  const bool in_place = !n.empty() && n.back() == '_' && n != "copy_" && n != "fill_" && n != "zero_";
  (void)in_place;  // in-place ops read `self` (counted above) and write it back: one output
  // Full-size inputs of different types (fp32 + bf16 under autocast) run the unrolled kernel's
  // dynamic cast; the model reads them in the widest type.
  bool mixed = false;
  if (n != "copy_" && has(kernel, "unrolled_elementwise_kernel")) {
    std::optional<DataType> first;
    for (size_t i = 0; i < op.inputs.size(); ++i) {
      const auto* s = shape(op, i);
      const auto t = torch_dtype(op.inputs[i].type);
      if (!s || numel(*s) != elements || !t) continue;
      if (first && *t != *first) mixed = true;
      if (!first || bytes_per_element(*t) > bytes_per_element(*first)) first = t;
    }
    if (mixed && first) in = out = *first;
  }
  auto r = pointwise(elements, in, out, inputs, 1, 1, kernel);
  if (auto* e = r ? std::get_if<wl::ElementwiseOp>(&*r) : nullptr; e && !e->contiguous && n != "copy_") {
    e->broadcast_inputs = broadcast;
    e->mixed_types = mixed;
  }
  if (auto* e = r ? std::get_if<wl::ElementwiseOp>(&*r) : nullptr; e && !e->contiguous)
    if (const auto* x = shape(op, largest)) e->index_dims = strided_index_dims(op, *x, largest, n == "copy_");
  return r;
}

}  // namespace

std::optional<DataType> torch_dtype(const std::string& t) {
  if (t == "c10::BFloat16") return DataType::bf16;
  if (t == "c10::Half") return DataType::fp16;
  if (t == "float") return DataType::fp32;
  if (t == "double" || t == "long int" || t == "long" || t == "int64_t" || t == "c10::complex<float>")
    return DataType::fp64;  // 8-byte elements
  if (t == "int" || t == "unsigned int") return DataType::fp32;  // 4-byte elements
  if (t == "short" || t == "c10::complex<c10::Half>") return DataType::fp16;
  if (t.find("Float8") != std::string::npos) return DataType::fp8;
  if (t == "bool" || t == "unsigned char" || t == "signed char" || t == "char") return DataType::int8;
  return std::nullopt;
}

wl::Count numel(const std::vector<std::int64_t>& shape) {
  wl::Count n = 1;
  for (auto d : shape) n *= std::max<std::int64_t>(d, 0);
  return n;
}

double input_bytes(const CpuOp& op) {
  double total = 0;
  for (const auto& in : op.inputs) {
    const auto t = torch_dtype(in.type);
    const double e = t ? bytes_per_element(*t) : 4.0;
    for (const auto& s : in.shapes) total += e * double(numel(s));
  }
  return total;
}

std::optional<wl::Op> recognize_op(const CpuOp& op, const std::string& kernel) {
  if (!op.has_shapes) return std::nullopt;
  const std::string n = short_name(op.name);
  if (auto r = recognize_gemm(n, op, kernel)) return r;
  if (auto r = recognize_attention(n, op, kernel)) return r;
  if (auto r = recognize_norm_softmax(n, op)) return r;
  if (auto r = recognize_conv(n, op)) return r;
  if (auto r = recognize_batch_norm(n, op)) return r;
  if (auto r = recognize_embedding(n, op)) return r;
  if (auto r = recognize_optimizer(n, op, kernel)) return r;
  // Ops that launch library kernels are recognized above or not at all.
  const std::string family = kernel_family(kernel);
  if (family == "gemm" || family == "attention" || family == "conv") return std::nullopt;
  return recognize_pointwise(n, op, kernel);
}

bool foreach_without_sizes(const CpuOp& op) {
  const std::string n = short_name(op.name);
  if (n.rfind("_foreach_", 0) != 0 && n != "_fused_adamw_" && n != "_fused_adam_" &&
      n != "_amp_foreach_non_finite_check_and_unscale_")
    return false;
  for (const auto& in : op.inputs)
    if (in.is_list && !in.shapes.empty()) return false;
  return true;
}

std::string kernel_family(const std::string& k) {
  std::string s(k);
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (has(s, "memcpy")) return "copy";
  if (has(s, "memset")) return "memset";
  if (has(s, "flash") || has(s, "fmha") || has(s, "attention") || has(s, "attn") || has(s, "sdpa") ||
      has(s, "dot_do_o") || has(s, "convert_dq"))
    return "attention";
  if (has(s, "conv") || has(s, "implicit_gemm") || has(s, "wgrad") || has(s, "dgrad") || has(s, "fprop"))
    return "conv";
  if (has(s, "gemm") || has(s, "cutlass") || has(s, "wgmma") || has(s, "xmma") || has(s, "s16816") ||
      has(s, "s1688") || has(s, "cublas") || has(s, "gemv") || has(s, "nvjet"))
    return "gemm";
  if (has(s, "layer_norm") || has(s, "layernorm") || has(s, "rms_norm") || has(s, "rmsnorm")) return "norm";
  if (has(s, "softmax")) return "softmax";
  if (has(s, "multi_tensor_apply") || has(s, "adam") || has(s, "foreach")) return "optimizer";
  if (has(s, "embedding") || has(s, "index_select") || has(s, "indexselect")) return "embedding";
  if (has(s, "reduce_kernel") || has(s, "reduction")) return "reduce";
  if (has(s, "elementwise") || has(s, "vectorized") || has(s, "pointwise") || has(s, "triton_poi") ||
      has(s, "catarraybatchedcopy"))
    return "elementwise";
  if (has(s, "triton_red") || has(s, "triton_per")) return "reduce";
  return "other";
}

std::optional<DataType> kernel_dtype(const std::string& k) {
  std::string s(k);
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (has(s, "e4m3") || has(s, "e5m2") || has(s, "fp8")) return DataType::fp8;
  if (has(s, "bf16") || has(s, "bfloat16")) return DataType::bf16;
  if (has(s, "f16") || has(s, "fp16") || has(s, "half") || has(s, "h1688") || has(s, "h16816")) return DataType::fp16;
  if (has(s, "tf32")) return DataType::tf32;
  if (has(s, "sgemm") || has(s, "f32f32")) return DataType::fp32;
  return std::nullopt;
}

}  // namespace gpucast::trace
