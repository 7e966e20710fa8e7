#pragma once
// The operations a workload kernel can perform, with their shape parameters. Counts (FLOPs,
// minimum bytes) are properties of the operation; how a GPU executes it lives in models/.
#include <cstdint>
#include <optional>
#include <string>
#include <tuple>
#include <variant>

#include "common/dtype.h"
#include "workloads/traced_op.h"

namespace gpucast::wl {

using Count = std::int64_t;  // elements, rows, dimensions

struct GemmOp {  // C[m,n] = A[m,k] B[k,n], `batch` independent products
  Count m = 0, n = 0, k = 0, batch = 1;
  DataType dtype = DataType::bf16;
  DataType out_dtype = DataType::bf16;
  // Every parameter, once: equality and hashing (sim/op_cache_key.h) read this list.
  [[nodiscard]] auto fields() const { return std::tie(m, n, k, batch, dtype, out_dtype); }
};

// Which kernel family runs attention, as PyTorch's SDPA backends name them. `automatic` follows
// PyTorch's dispatch for the GPU's architecture (models/attention_model.cpp says which it picks).
enum class AttentionBackend { automatic, flash2, flash3, cudnn, efficient, math };
[[nodiscard]] std::string_view attention_backend_name(AttentionBackend b);

struct AttentionOp {  // fused (flash-style) scaled-dot-product attention, forward or backward
  Count batch = 0, heads = 0, kv_heads = 0, seq_q = 0, seq_kv = 0, head_dim = 0;
  bool causal = false;
  DataType dtype = DataType::bf16;
  bool backward = false;  // dQ, dK, dV from dO (recomputes the scores)
  AttentionBackend backend = AttentionBackend::automatic;
  // Every parameter, once: equality and hashing (sim/op_cache_key.h) read this list.
  [[nodiscard]] auto fields() const { return std::tie(batch, heads, kv_heads, seq_q, seq_kv, head_dim, causal, dtype, backward, backend); }
};

struct Conv2dOp {  // NHWC; output (n, p, q, k)
  Count n = 0, c = 0, h = 0, w = 0, k = 0, r = 0, s = 0, stride = 1, pad = 0;
  DataType dtype = DataType::bf16;
  // fp32 only: cuDNN may run TF32 tensor cores (torch.backends.cudnn.allow_tf32, true by default in
  // PyTorch); false keeps fp32 on the FMA (SIMT) kernels.
  bool allow_tf32 = true;
  [[nodiscard]] bool uses_tf32() const { return dtype == DataType::fp32 && allow_tf32; }
  // Every parameter, once: equality and hashing (sim/op_cache_key.h) read this list.
  [[nodiscard]] auto fields() const { return std::tie(n, c, h, w, k, r, s, stride, pad, dtype, allow_tf32); }
  [[nodiscard]] Count p() const { return (h + 2 * pad - r) / stride + 1; }
  [[nodiscard]] Count q() const { return (w + 2 * pad - s) / stride + 1; }
};

struct ElementwiseOp {
  Count elements = 0;
  DataType dtype = DataType::bf16;
  DataType out_dtype = DataType::bf16;
  int inputs = 1, outputs = 1;
  double flops_per_element = 1;
  bool contiguous = true;  // false: strided views (transposes, slices), PyTorch's non-vectorized kernel
  // Every parameter, once: equality and hashing (sim/op_cache_key.h) read this list.
  [[nodiscard]] auto fields() const { return std::tie(elements, dtype, out_dtype, inputs, outputs, flops_per_element, contiguous); }
};

enum class RowOpKind { reduce, softmax, layernorm, rmsnorm };
struct RowOp {  // row-wise ops: reduce (over cols), softmax, layernorm and rmsnorm (over hidden)
  RowOpKind kind = RowOpKind::reduce;
  Count rows = 0, cols = 0;  // cols = hidden for the norms
  DataType dtype = DataType::bf16;
  bool backward = false;  // norms only: dX, dweight (and dbias) from dY, as autograd runs them
  // Every parameter, once: equality and hashing (sim/op_cache_key.h) read this list.
  [[nodiscard]] auto fields() const { return std::tie(kind, rows, cols, dtype, backward); }
};

struct EmbeddingOp {  // row gather: out[t] = table[index[t]]
  Count vocab = 0, dim = 0, tokens = 0;
  DataType dtype = DataType::bf16;
  bool backward = false;  // embedding_dense_backward: the table's gradient from the gathered rows' gradient
  // Every parameter, once: equality and hashing (sim/op_cache_key.h) read this list.
  [[nodiscard]] auto fields() const { return std::tie(vocab, dim, tokens, dtype, backward); }
};

enum class CopyKind { d2d, h2d, d2h };
struct CopyOp {
  double bytes = 0;
  CopyKind kind = CopyKind::d2d;
  // Every parameter, once: equality and hashing (sim/op_cache_key.h) read this list.
  [[nodiscard]] auto fields() const { return std::tie(bytes, kind); }
};

struct CustomOp {  // anything else, by its counts
  double flops = 0;
  double bytes = 0;
  DataType dtype = DataType::fp32;
  // Every parameter, once: equality and hashing (sim/op_cache_key.h) read this list.
  [[nodiscard]] auto fields() const { return std::tie(flops, bytes, dtype); }
};

// A NCCL collective (or point-to-point transfer) among `ranks` GPUs of the system the workload runs
// on; the workload describes one rank's work. `bytes` counts the buffer as nccl-tests does: the
// all-reduce buffer, the gathered output of all_gather, the input of reduce_scatter, the whole
// send buffer of all_to_all, the broadcast buffer, the message of send/recv.
enum class CollectiveKind { all_reduce, all_gather, reduce_scatter, all_to_all, broadcast, send, recv };
struct CollectiveOp {
  CollectiveKind kind = CollectiveKind::all_reduce;
  double bytes = 0;
  DataType dtype = DataType::bf16;
  int ranks = 2;
  int stride = 1;  // group members are GPUs r, r + stride, ... (a data-parallel group across TP groups)
  // Every parameter, once: equality and hashing (sim/op_cache_key.h) read this list.
  [[nodiscard]] auto fields() const { return std::tie(kind, bytes, dtype, ranks, stride); }
};
[[nodiscard]] std::string_view collective_name(CollectiveKind kind);
[[nodiscard]] std::optional<CollectiveKind> parse_collective(std::string_view name);

// TracedOp (workloads/traced_op.h): a profiler-trace kernel no op model re-predicts, scaled by mechanism.
using Op = std::variant<GemmOp, AttentionOp, Conv2dOp, ElementwiseOp, RowOp, EmbeddingOp, CopyOp, CustomOp,
                        CollectiveOp, TracedOp>;

// The op's name as written in workload files: "gemm", "softmax", ...
[[nodiscard]] std::string op_name(const Op& op);
// Short human shape, e.g. "8192x12288x4096 bf16" or "b4 h32 s2048 d128 causal".
[[nodiscard]] std::string op_shape(const Op& op);
// Useful floating-point work (FLOPs; multiply-add = 2), as roofline and MFU count it.
[[nodiscard]] double op_flops(const Op& op);
// The fewest bytes the op must move through device memory: each input read once, each output
// written once.
[[nodiscard]] double op_min_bytes(const Op& op);
// The data type whose arithmetic rate bounds the op.
[[nodiscard]] DataType op_compute_dtype(const Op& op);
[[nodiscard]] std::string_view copy_kind_name(CopyKind kind);
[[nodiscard]] std::string_view row_op_name(RowOpKind kind);

}  // namespace gpucast::wl
