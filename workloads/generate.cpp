#include "workloads/generate.h"

#include "common/errors.h"
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

GeneratedModel generate(const ModelConfig& model, const GenerateOptions& o) {
  if (o.batch < 1 || o.seq < 1 || o.context < 0)
    throw InputError(SourceLocation{}, "batch", "batch and sequence length must be positive");
  check_limits(model, o);
  if (const auto* t = std::get_if<TransformerConfig>(&model)) {
    if (o.layers > 0) {
      TransformerConfig c = *t;
      c.layers = o.layers;
      return generate_transformer(c, o);
    }
    return generate_transformer(*t, o);
  }
  if (const auto* r = std::get_if<ResNetConfig>(&model)) return generate_resnet(*r, o);
  if (const auto* u = std::get_if<UNet2DConfig>(&model)) return generate_unet2d(*u, o);
  return generate_unet1d(std::get<UNet1DConfig>(model), o);
}

}  // namespace gpucast::wl
