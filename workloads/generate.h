#pragma once
// Generates workload graphs from model descriptions, as PyTorch runs them: the kernels of a
// training step, a prefill, a decode step or an inference pass, with the memory the run needs
// and the useful work it does (for throughput and MFU).
#include "workloads/model_config.h"
#include "workloads/workload.h"

namespace gpucast::wl {

// Limits on what a generation request may ask for, checked before anything is built.
constexpr long kDefaultMaxKernels = 1'000'000;
constexpr long kMaxBatch = 1L << 20;
constexpr long kMaxSeq = 1L << 22;      // tokens per sequence, and decode context
constexpr double kMaxTokens = 4294967296.0;  // batch x tokens per sequence (2^32)
constexpr double kMaxScoreElements = 1125899906842624.0;  // batch x heads x seq_q x seq_kv (2^50)

enum class Mode { train, prefill, decode, inference };
[[nodiscard]] std::string_view mode_name(Mode m);

// How a run is spread over GPUs. The generated workload is one rank's work.
enum class Zero { none, os, os_grad, full };  // ZeRO-1 (optimizer), ZeRO-2 (+ gradients), ZeRO-3 / FSDP
[[nodiscard]] std::string_view zero_name(Zero z);
struct Parallelism {
  int tp = 1;                // tensor parallel: heads and MLP columns split, two all-reduces per layer
  int pp = 1;                // pipeline stages (layers split); the workload is one stage's microbatch
  int dp = 1;                // data parallel replicas
  int ep = 1;                // expert parallel (MoE): experts split, all-to-all dispatch and combine
  bool sp = false;           // sequence parallel: TP all-reduces become reduce-scatter + all-gather
  int microbatches = 1;      // per pipeline step (1F1B)
  Zero zero = Zero::none;
  [[nodiscard]] int world() const { return tp * pp * dp; }
  [[nodiscard]] bool any() const { return world() > 1 || ep > 1; }
};
// How a training step keeps its numbers (workloads/training_step.h). `dtype`: the older generator
// (weights, grads and fp32 AdamW states by --dtype, fused projections, one kernel per op family).
// The others emit the step as eager PyTorch runs an HF-style Llama: amp = fp32 master weights under
// autocast (bf16 casts each step, fp32 residual stream); bf16/fp16/fp32 = weights, grads and
// optimizer states all in that type.
enum class Precision { dtype, amp, bf16, fp16, fp32 };
enum class Optimizer { adamw, adamw_fused, sgd };
[[nodiscard]] std::string_view precision_name(Precision p);
[[nodiscard]] std::string_view optimizer_name(Optimizer o);

struct GenerateOptions {
  Mode mode = Mode::inference;
  long batch = 1;
  long seq = 2048;       // tokens per sequence (prefill, train, encoders)
  long context = 4096;   // tokens already in the KV cache (decode)
  DataType dtype = DataType::bf16;
  bool flash_attention = true;     // false: QK^T, softmax and PV as separate kernels
  AttentionBackend attention_backend = AttentionBackend::automatic;  // the fused kernel's family
  bool fused_elementwise = false;  // true: one kernel per pointwise chain (compiled / fused)
  bool recompute = false;          // activation checkpointing in training: forward again in backward
  LaunchMode launch = LaunchMode::eager;
  int layers = 0;  // > 0: override the model's layer count (one-layer studies)
  // CNN activation layout. NCHW makes cuDNN's tensor-core convolutions transpose their operands
  // to NHWC and back around every call; FP32 (SIMT) convolutions run NCHW natively.
  bool channels_last = true;
  // The most kernels a generated workload may hold; generate() refuses larger requests up front
  // (--max-kernels raises it).
  long max_kernels = kDefaultMaxKernels;
  Parallelism parallel;
  // Training as PyTorch runs it (used when precision != dtype; transformers only).
  Precision precision = Precision::dtype;
  Optimizer optimizer = Optimizer::adamw;  // adamw: foreach (PyTorch's default on CUDA)
  bool clip_grad = false;                  // clip_grad_norm_(foreach=True) before the step
  int grad_accum = 1;                      // micro-steps (forward + backward) per optimizer step
};

// Memory a run needs on one GPU, in bytes.
struct MemoryEstimate {
  double weights = 0;
  double gradients = 0;
  double optimizer = 0;  // AdamW moments (and fp32 master weights for 16/8-bit training)
  double activations = 0;
  double kv_cache = 0;
  double workspace = 0;  // library workspaces, CUDA context, the largest temporary
  [[nodiscard]] double peak() const { return weights + gradients + optimizer + activations + kv_cache + workspace; }
};

struct GeneratedModel {
  Workload workload;
  double parameters = 0;
  double useful_flops = 0;  // per step, as MFU counts them (6 x params x tokens in training)
  double items = 0;         // tokens (language models) or samples (images) per step
  bool items_are_tokens = true;
  MemoryEstimate memory;  // per GPU
  int world = 1;          // GPUs the job uses; items count the whole job, useful_flops one GPU's share
  // Pipeline parallel: the workload is one microbatch of one stage; `backward_from` is the index of
  // the first backward kernel (0: forward only).
  size_t backward_from = 0;
  // Pipeline parallel: kernels from `tail_from` on run once per step after the last microbatch
  // (gradient reduction, optimizer); 0: none.
  size_t tail_from = 0;
};

// The same workload launched by torch.compile'd code: each kernel's host work becomes a compiled
// launch, with a guard check where the forward and the backward start.
[[nodiscard]] Workload compiled_host(const Workload& w);

// Throws InputError for options the model cannot run with (decode on an encoder, ...).
[[nodiscard]] GeneratedModel generate(const ModelConfig& model, const GenerateOptions& options);

}  // namespace gpucast::wl
