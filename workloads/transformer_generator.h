#pragma once
// Transformer stacks (decoder LLMs, encoders) as PyTorch runs them.
#include "workloads/generate.h"

namespace gpucast::wl {

[[nodiscard]] GeneratedModel generate_transformer(const TransformerConfig& c, const GenerateOptions& o);

}  // namespace gpucast::wl
