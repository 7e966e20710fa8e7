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

std::string_view zero_name(Zero z) {
  switch (z) {
    case Zero::os: return "zero1";
    case Zero::os_grad: return "zero2";
    case Zero::full: return "zero3";
    default: return "none";
  }
}

GeneratedModel generate(const ModelConfig& model, const GenerateOptions& o) {
  if (o.batch < 1 || o.seq < 1 || o.context < 0)
    throw InputError(SourceLocation{}, "batch", "batch and sequence length must be positive");
  const auto& par = o.parallel;
  if (par.tp < 1 || par.pp < 1 || par.dp < 1 || par.ep < 1 || par.microbatches < 1)
    throw InputError(SourceLocation{}, "--tp", "parallel degrees and --microbatches must be >= 1");
  if (par.any() && !std::holds_alternative<TransformerConfig>(model))
    throw InputError(SourceLocation{}, "--tp", "parallel layouts are generated for transformer models only");
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
