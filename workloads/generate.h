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

struct GenerateOptions {
  Mode mode = Mode::inference;
  long batch = 1;
  long seq = 2048;       // tokens per sequence (prefill, train, encoders)
  long context = 4096;   // tokens already in the KV cache (decode)
  DataType dtype = DataType::bf16;
  bool flash_attention = true;     // false: QK^T, softmax and PV as separate kernels
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
  MemoryEstimate memory;
};

// Throws InputError for options the model cannot run with (decode on an encoder, ...).
[[nodiscard]] GeneratedModel generate(const ModelConfig& model, const GenerateOptions& options);

}  // namespace gpucast::wl
