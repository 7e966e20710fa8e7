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

GeneratedModel generate(const ModelConfig& model, const GenerateOptions& o) {
  if (o.batch < 1 || o.seq < 1 || o.context < 0)
    throw InputError(SourceLocation{}, "batch", "batch and sequence length must be positive");
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
