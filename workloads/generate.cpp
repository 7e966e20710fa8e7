#include "workloads/generate.h"

#include "common/errors.h"
#include "workloads/training_step.h"
#include "workloads/transformer_generator.h"
#include "workloads/vision_generators.h"

namespace gpucast::wl {

std::string_view mode_name(Mode m) {
  switch (m) {
    case Mode::train: return "train";
    case Mode::prefill: return "prefill";
    case Mode::decode: return "decode";
    default: return "inference";
  }
}

namespace {
[[noreturn]] void too_big(const std::string& key, const std::string& message) {
  throw InputError(SourceLocation{"--" + key}, key, message);
}

// Kernels a request will generate, from above: a transformer layer issues at most 64 kernels
// forward (unfused, with biases), training adds a backward of twice that and recomputation a
// second forward; vision models are bounded by their stage lists.
double kernel_estimate(const ModelConfig& model, const GenerateOptions& o) {
  const double passes = o.mode == Mode::train ? (o.recompute ? 4 : 3) : 1;
  if (const auto* t = std::get_if<TransformerConfig>(&model)) {
    const double layers = o.layers > 0 ? o.layers : t->layers;
    return (layers * 64 + 64) * passes;
  }
  if (const auto* r = std::get_if<ResNetConfig>(&model)) {
    double blocks = 0;
    for (int b : r->blocks) blocks += b;
    return (blocks * 16 + 16) * passes;
  }
  if (const auto* u = std::get_if<UNet2DConfig>(&model)) return (double(u->channels.size()) * 400 + 100) * passes;
  return (double(std::get<UNet1DConfig>(model).channels.size()) * 100 + 100) * passes;
}

void check_limits(const ModelConfig& model, const GenerateOptions& o) {
  if (o.batch > kMaxBatch) too_big("batch", "at most " + std::to_string(kMaxBatch) + " (found " + std::to_string(o.batch) + ")");
  if (o.seq > kMaxSeq) too_big("seq", "at most " + std::to_string(kMaxSeq) + " tokens (found " + std::to_string(o.seq) + ")");
  if (o.context > kMaxSeq)
    too_big("context", "at most " + std::to_string(kMaxSeq) + " tokens (found " + std::to_string(o.context) + ")");
  if (o.layers < 0 || o.layers > 100000)
    too_big("layers", "at most 100000 layers (found " + std::to_string(o.layers) + ")");
  if (o.max_kernels < 1) too_big("max-kernels", "must be at least 1");
  const double per_seq = o.mode == Mode::decode ? double(o.context) + 1 : double(o.seq);
  if (double(o.batch) * per_seq > kMaxTokens)
    too_big("batch", "batch x sequence is " + std::to_string(static_cast<long long>(double(o.batch) * per_seq)) +
                         " tokens; the most is 2^32");
  if (const auto* t = std::get_if<TransformerConfig>(&model)) {
    const double q = o.mode == Mode::decode ? 1 : double(o.seq);
    if (double(o.batch) * t->heads * q * per_seq > kMaxScoreElements)
      too_big("seq", "the attention scores (batch x heads x seq x seq) would exceed 2^50 elements; lower --batch or --seq");
  }
  const double kernels = kernel_estimate(model, o);
  if (kernels > double(o.max_kernels))
    too_big("max-kernels", "this request would generate up to " + std::to_string(static_cast<long long>(kernels)) +
                               " kernels, over the limit of " + std::to_string(o.max_kernels) +
                               "; raise it with --max-kernels N");
}
}  // namespace
std::string_view zero_name(Zero z) {
  switch (z) {
    case Zero::os: return "zero1";
    case Zero::os_grad: return "zero2";
    case Zero::full: return "zero3";
    default: return "none";
  }
}

std::string_view precision_name(Precision p) {
  switch (p) {
    case Precision::amp: return "amp";
    case Precision::bf16: return "bf16";
    case Precision::fp16: return "fp16";
    case Precision::fp32: return "fp32";
    default: return "dtype";
  }
}

std::string_view optimizer_name(Optimizer o) {
  switch (o) {
    case Optimizer::adamw_fused: return "adamw-fused";
    case Optimizer::sgd: return "sgd";
    default: return "adamw";
  }
}

Workload compiled_host(const Workload& w) {
  // torch.compile: one guarded call runs the forward (and one the backward); every kernel is
  // launched by the compiled code, with no module calls, aten dispatch or autograd nodes.
  std::vector<Kernel> kernels = w.kernels();
  bool backward = false;
  for (size_t i = 0; i < kernels.size(); ++i) {
    HostWork h;
    h.add(HostCategory::compile_launch);
    if (is_library_op(kernels[i].op)) h.add(HostCategory::library_call, 0.25);  // extern library kernels
    const bool starts_backward = !backward && kernels[i].name.find(".bwd.") != std::string::npos;
    if (i == 0 || starts_backward) h.add(HostCategory::compile_guard);
    backward = backward || starts_backward;
    kernels[i].host = h;
  }
  return Workload::build(w.name(), w.launch(), std::move(kernels), w.host_launch_us(), w.origin());
}

GeneratedModel generate(const ModelConfig& model, const GenerateOptions& o) {
  if (o.batch < 1 || o.seq < 1 || o.context < 0)
    throw InputError(SourceLocation{}, "batch", "batch and sequence length must be positive");
  const auto& par = o.parallel;
  if (par.tp < 1 || par.pp < 1 || par.dp < 1 || par.ep < 1 || par.microbatches < 1)
    throw InputError(SourceLocation{}, "--tp", "parallel degrees and --microbatches must be >= 1");
  if (par.any() && !std::holds_alternative<TransformerConfig>(model))
    throw InputError(SourceLocation{}, "--tp", "parallel layouts are generated for transformer models only");
  if (o.grad_accum < 1) throw InputError(SourceLocation{"--grad-accum"}, "grad-accum", "must be >= 1");
  check_limits(model, o);
  if (const auto* t = std::get_if<TransformerConfig>(&model)) {
    TransformerConfig c = *t;
    if (o.layers > 0) c.layers = o.layers;
    if (o.mode != Mode::train && (o.grad_accum > 1 || o.clip_grad))
      throw InputError(SourceLocation{"--grad-accum"}, "grad-accum", "--grad-accum and --clip-grad go with --mode train");
    if (o.precision != Precision::dtype && !o.fused_elementwise) return generate_training_step(c, o);
    auto out = generate_transformer(c, o);
    if (o.fused_elementwise) out.workload = compiled_host(out.workload);
    return out;
  }
  if (const auto* r = std::get_if<ResNetConfig>(&model)) return generate_resnet(*r, o);
  if (const auto* u = std::get_if<UNet2DConfig>(&model)) return generate_unet2d(*u, o);
  return generate_unet1d(std::get<UNet1DConfig>(model), o);
}

}  // namespace gpucast::wl
