#pragma once
// Model descriptions the generators turn into workloads: transformer stacks (decoder LLMs and
// encoders), ResNet-style CNNs and diffusion U-Nets. Presets cover well-known models; anything
// else comes from a TOML model file ([model] type = "llama" ...).
#include <filesystem>
#include <string>
#include <variant>
#include <vector>

#include "common/dtype.h"

namespace gpucast::wl {

struct TransformerConfig {
  std::string name;
  bool decoder = true;          // false: bidirectional encoder (BERT)
  int layers = 0;
  long d_model = 0;
  int heads = 0;
  int kv_heads = 0;             // grouped-query attention when < heads
  long ffn = 0;                 // hidden size of the MLP
  long vocab = 0;
  bool swiglu = true;           // false: GELU MLP
  bool rmsnorm = true;          // false: LayerNorm
  bool rope = true;             // false: learned absolute positions
  bool tied_embeddings = false;
  bool bias = false;            // biases on projections (GPT-2, BERT)
  long max_positions = 0;       // learned position table size
  long head_size = 0;           // > 0: head dimension independent of d_model / heads (Qwen3)
  // Mixture of experts (experts > 0): layers from `dense_layers` on replace the MLP by `experts`
  // routed experts of width `expert_ffn` (each token to `experts_per_token`) plus `shared_experts`
  // always-active ones.
  int experts = 0;
  int experts_per_token = 0;
  int shared_experts = 0;
  long expert_ffn = 0;
  int dense_layers = 0;
  [[nodiscard]] long head_dim() const { return head_size > 0 ? head_size : d_model / heads; }
  [[nodiscard]] bool moe() const { return experts > 0; }
  [[nodiscard]] bool moe_layer(int l) const { return moe() && l >= dense_layers; }
};

struct ResNetConfig {
  std::string name;
  std::vector<int> blocks{3, 4, 6, 3};  // bottlenecks per stage
  int image = 224;
  int classes = 1000;
};

// Stable Diffusion 1.5-style 2-D U-Net at a latent resolution, with text cross-attention.
struct UNet2DConfig {
  std::string name;
  int latent = 64;                               // latent height = width
  std::vector<long> channels{320, 640, 1280, 1280};
  int text_tokens = 77;
  long text_dim = 768;
  int attention_heads = 8;
};

// Diffusion Policy's conditional 1-D temporal U-Net (Chi et al. 2023).
struct UNet1DConfig {
  std::string name;
  int horizon = 16;
  int action_dim = 10;
  std::vector<long> channels{256, 512, 1024};
  int kernel = 5;
  long cond_dim = 256;
};

using ModelConfig = std::variant<TransformerConfig, ResNetConfig, UNet2DConfig, UNet1DConfig>;

// The accepted range of each integer key of a model file (docs/workload-format.md lists them).
struct ModelKeyRange {
  std::string key;
  long min;
  long max;
};
[[nodiscard]] const std::vector<ModelKeyRange>& model_key_ranges();

[[nodiscard]] std::vector<std::string> preset_names();
// A preset by name, or a TOML model file by path; throws InputError with file:line:key.
[[nodiscard]] ModelConfig load_model(const std::string& name_or_file);
[[nodiscard]] std::string model_name(const ModelConfig& m);

// Parameters (weights) of the model.
[[nodiscard]] double parameter_count(const ModelConfig& m);
// Parameters one token uses (MoE: the routed experts it visits plus the shared ones; else all).
[[nodiscard]] double active_parameter_count(const TransformerConfig& t);
// Weights of one transformer layer `l` (attention, MLP or experts, norms, biases).
[[nodiscard]] double layer_parameter_count(const TransformerConfig& t, int l);

}  // namespace gpucast::wl
