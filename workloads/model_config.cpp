#include "workloads/model_config.h"

#include <algorithm>

#include "common/errors.h"
#include "common/suggest.h"
#include "common/toml_source.h"
#include "common/limits.h"

namespace gpucast::wl {
namespace {

TransformerConfig llama(const std::string& name, int layers, long d, int heads, int kv, long ffn, long vocab) {
  TransformerConfig c;
  c.name = name;
  c.layers = layers;
  c.d_model = d;
  c.heads = heads;
  c.kv_heads = kv;
  c.ffn = ffn;
  c.vocab = vocab;
  return c;
}

TransformerConfig gpt(const std::string& name, int layers, long d, int heads, long vocab, long positions) {
  TransformerConfig c;
  c.name = name;
  c.layers = layers;
  c.d_model = d;
  c.heads = c.kv_heads = heads;
  c.ffn = 4 * d;
  c.vocab = vocab;
  c.swiglu = false;
  c.rmsnorm = false;
  c.rope = false;
  c.tied_embeddings = true;
  c.bias = true;
  c.max_positions = positions;
  return c;
}

TransformerConfig bert(const std::string& name, int layers, long d, int heads) {
  TransformerConfig c = gpt(name, layers, d, heads, 30522, 512);
  c.decoder = false;
  c.tied_embeddings = true;
  return c;
}

}  // namespace

TransformerConfig moe(TransformerConfig c, int experts, int top_k, int shared, long expert_ffn, int dense_layers) {
  c.experts = experts;
  c.experts_per_token = top_k;
  c.shared_experts = shared;
  c.expert_ffn = expert_ffn;
  c.dense_layers = dense_layers;
  return c;
}

std::vector<std::string> preset_names() {
  return {"gpt2",         "gpt3-175b",    "llama-2-7b",         "llama-2-13b",   "llama-2-70b",
          "llama-3-8b",   "llama-3-70b",  "llama-3-405b",       "mistral-7b",    "mixtral-8x7b",
          "deepseek-v3-style", "qwen3-30b-a3b", "bert-base",    "bert-large",    "resnet50",
          "sd15-unet",    "diffusion-policy-unet"};
}

std::string model_name(const ModelConfig& m) {
  return std::visit([](const auto& c) { return c.name; }, m);
}

namespace {
std::optional<ModelConfig> preset(const std::string& n) {
  if (n == "gpt2") return gpt("gpt2", 12, 768, 12, 50257, 1024);
  if (n == "gpt3-175b") {
    auto c = gpt("gpt3-175b", 96, 12288, 96, 50257, 2048);
    return c;
  }
  if (n == "llama-2-7b") return llama(n, 32, 4096, 32, 32, 11008, 32000);
  if (n == "llama-2-13b") return llama(n, 40, 5120, 40, 40, 13824, 32000);
  if (n == "llama-2-70b") return llama(n, 80, 8192, 64, 8, 28672, 32000);
  if (n == "llama-3-8b") return llama(n, 32, 4096, 32, 8, 14336, 128256);
  if (n == "llama-3-70b") return llama(n, 80, 8192, 64, 8, 28672, 128256);
  if (n == "mistral-7b") return llama(n, 32, 4096, 32, 8, 14336, 32000);
  if (n == "llama-3-405b") return llama(n, 126, 16384, 128, 8, 53248, 128256);
  // Mixtral 8x7B (Mistral AI model card): 8 experts of 14336, top-2, no shared expert.
  if (n == "mixtral-8x7b") return moe(llama(n, 32, 4096, 32, 8, 14336, 32000), 8, 2, 0, 14336, 0);
  // DeepSeek-V3 style (DeepSeek-V3 technical report): 61 layers, d 7168, 3 dense layers of 18432,
  // then 256 routed experts of 2048 (top-8) plus 1 shared, vocab 129280. Multi-head latent attention
  // is approximated by 56 query / 8 key-value heads of 128 (the same attention width).
  if (n == "deepseek-v3-style") return moe(llama(n, 61, 7168, 56, 8, 18432, 129280), 256, 8, 1, 2048, 3);
  // Qwen3-30B-A3B (Qwen model card): 48 layers, d 2048, 32 query / 4 kv heads of 128, 128 experts of
  // 768, top-8, vocab 151936.
  if (n == "qwen3-30b-a3b") {
    auto c = moe(llama(n, 48, 2048, 32, 4, 6144, 151936), 128, 8, 0, 768, 0);
    c.head_size = 128;
    return c;
  }
  if (n == "bert-base") return bert(n, 12, 768, 12);
  if (n == "bert-large") return bert(n, 24, 1024, 16);
  if (n == "resnet50") return ResNetConfig{"resnet50"};
  if (n == "sd15-unet") return UNet2DConfig{"sd15-unet"};
  if (n == "diffusion-policy-unet") return UNet1DConfig{"diffusion-policy-unet"};
  return std::nullopt;
}

}  // namespace

const std::vector<ModelKeyRange>& model_key_ranges() {
  static const std::vector<ModelKeyRange> kRanges{
      {"layers", 1, 100000},        {"d_model", 1, 131072},    {"heads", 1, 4096},
      {"kv_heads", 1, 4096},        {"ffn", 1, 1048576},       {"vocab", 1, 16777216},
      {"max_positions", 1, 16777216}, {"blocks", 1, 1000},     {"image", 1, 16384},
      {"classes", 1, 1048576},      {"latent", 1, 4096},       {"channels", 1, 65536},
      {"text_tokens", 1, 1048576},  {"text_dim", 1, 131072},   {"attention_heads", 1, 4096},
      {"horizon", 1, 1048576},      {"action_dim", 1, 65536},  {"kernel", 1, 255},
      {"cond_dim", 1, 131072},
  };
  return kRanges;
}

namespace {
const ModelKeyRange& range_of(const std::string& key) {
  for (const auto& r : model_key_ranges())
    if (r.key == key) return r;
  static const ModelKeyRange kDefault{"", 1, 1 << 20};
  return kDefault;
}

// Lists (blocks, channels) hold at most this many stages.
constexpr size_t kMaxListLength = 16;

// Reads [model] keys with types and a did-you-mean for unknown ones.
class ModelTable {
 public:
  ModelTable(const toml::table& t, std::string file) : t_(t), file_(std::move(file)) {}
  void allow(std::vector<std::string> keys) {
    keys.push_back("type");
    keys.push_back("name");
    for (auto&& [k, node] : t_) {
      const std::string key(k.str());
      if (std::find(keys.begin(), keys.end(), key) == keys.end())
        throw InputError(location_of(k, file_), "model." + key, "unknown key" + did_you_mean(key, keys));
    }
  }
  long integer(const std::string& key, std::optional<long> fallback = std::nullopt) const {
    const toml::node* n = t_.get(key);
    if (!n) {
      if (fallback) return *fallback;
      throw InputError(SourceLocation{file_}, "model." + key, "missing required key");
    }
    if (!n->is_integer())
      throw InputError(location_of(*n, file_), "model." + key, "expected a positive integer, found " + describe_type(*n));
    const auto& range = range_of(key);
    const std::int64_t v = n->as_integer()->get();
    if (v < range.min || v > range.max)
      throw InputError(location_of(*n, file_), "model." + key,
                       "out of range: must be in [" + std::to_string(range.min) + ", " + std::to_string(range.max) +
                           "] (found " + std::to_string(v) + ")");
    return static_cast<long>(v);
  }
  bool boolean(const std::string& key, bool fallback) const {
    const toml::node* n = t_.get(key);
    if (!n) return fallback;
    if (!n->is_boolean()) throw InputError(location_of(*n, file_), "model." + key, "expected true or false");
    return n->as_boolean()->get();
  }
  std::string choice(const std::string& key, const std::vector<std::string>& choices, const std::string& fallback) const {
    const toml::node* n = t_.get(key);
    if (!n) return fallback;
    const std::string v = n->is_string() ? n->as_string()->get() : "";
    if (std::find(choices.begin(), choices.end(), v) == choices.end()) {
      std::string list;
      for (const auto& c : choices) list += (list.empty() ? "" : ", ") + c;
      throw InputError(location_of(*n, file_), "model." + key, "expected one of " + list + did_you_mean(v, choices));
    }
    return v;
  }
  std::string text(const std::string& key, const std::string& fallback) const {
    const toml::node* n = t_.get(key);
    if (!n) return fallback;
    if (!n->is_string() || n->as_string()->get().empty() || n->as_string()->get().size() > 4096)
      throw InputError(location_of(*n, file_), "model." + key, "expected a string of 1 to 4096 bytes");
    return n->as_string()->get();
  }
  std::vector<long> list(const std::string& key, const std::vector<long>& fallback) const {
    const toml::node* n = t_.get(key);
    if (!n) return fallback;
    const auto* a = n->as_array();
    std::vector<long> out;
    const auto& range = range_of(key);
    if (a && a->size() <= kMaxListLength)
      for (const auto& e : *a)
        if (e.is_integer() && e.as_integer()->get() >= range.min && e.as_integer()->get() <= range.max)
          out.push_back(static_cast<long>(e.as_integer()->get()));
    if (!a || out.size() != a->size() || out.empty())
      throw InputError(location_of(*n, file_), "model." + key,
                       "expected a list of 1 to " + std::to_string(kMaxListLength) + " integers in [" +
                           std::to_string(range.min) + ", " + std::to_string(range.max) + "]");
    return out;
  }

 private:
  const toml::table& t_;
  std::string file_;
};

ModelConfig read_model_file(const std::filesystem::path& path) {
  const std::string file = path.string();
  const toml::table root = parse_toml_file(path);
  for (auto&& [k, node] : root)
    if (std::string(k.str()) != "model")
      throw InputError(location_of(k, file), std::string(k.str()), "unknown key; a model file holds one [model] table");
  const auto* table = root.get_as<toml::table>("model");
  if (!table) throw InputError(SourceLocation{file}, "model", "missing the [model] table");
  ModelTable m(*table, file);
  const std::string type =
      m.choice("type", {"llama", "gpt", "bert", "resnet", "unet2d", "unet1d"}, "");
  const std::string name = m.text("name", path.stem().string());
  if (type == "llama" || type == "gpt" || type == "bert") {
    m.allow({"layers", "d_model", "heads", "kv_heads", "ffn", "vocab", "activation", "norm", "positions",
             "tied_embeddings", "bias", "max_positions", "head_dim", "experts", "experts_per_token",
             "shared_experts", "expert_ffn", "dense_layers"});
    TransformerConfig c;
    c.name = name;
    c.decoder = type != "bert";
    c.layers = static_cast<int>(m.integer("layers"));
    c.d_model = m.integer("d_model");
    c.heads = static_cast<int>(m.integer("heads"));
    c.kv_heads = static_cast<int>(m.integer("kv_heads", c.heads));
    const bool llama_like = type == "llama";
    c.ffn = m.integer("ffn", llama_like ? std::optional<long>{} : std::optional<long>{4 * c.d_model});
    c.vocab = m.integer("vocab");
    c.swiglu = m.choice("activation", {"swiglu", "gelu"}, llama_like ? "swiglu" : "gelu") == "swiglu";
    c.rmsnorm = m.choice("norm", {"rmsnorm", "layernorm"}, llama_like ? "rmsnorm" : "layernorm") == "rmsnorm";
    c.rope = m.choice("positions", {"rope", "learned"}, llama_like ? "rope" : "learned") == "rope";
    c.tied_embeddings = m.boolean("tied_embeddings", !llama_like);
    c.bias = m.boolean("bias", !llama_like);
    c.max_positions = m.integer("max_positions", 2048);
    c.head_size = table->get("head_dim") ? m.integer("head_dim") : 0;
    if (table->get("experts")) {
      c.experts = static_cast<int>(m.integer("experts"));
      c.experts_per_token = static_cast<int>(m.integer("experts_per_token"));
      c.expert_ffn = m.integer("expert_ffn");
      c.shared_experts = table->get("shared_experts") ? static_cast<int>(m.integer("shared_experts")) : 0;
      c.dense_layers = table->get("dense_layers") ? static_cast<int>(m.integer("dense_layers")) : 0;
      if (c.experts_per_token > c.experts)
        throw InputError(location_of(*table->get("experts_per_token"), file), "model.experts_per_token",
                         "more than model.experts");
    }
    if (c.head_size == 0 && c.d_model % c.heads != 0)
      throw InputError(SourceLocation{file}, "model.heads", "d_model must be a multiple of heads");
    if (c.heads % c.kv_heads != 0)
      throw InputError(SourceLocation{file}, "model.kv_heads", "heads must be a multiple of kv_heads");
    return c;
  }
  if (type == "resnet") {
    m.allow({"blocks", "image", "classes"});
    ResNetConfig c;
    c.name = name;
    c.blocks.clear();
    for (long b : m.list("blocks", {3, 4, 6, 3})) c.blocks.push_back(static_cast<int>(b));
    c.image = static_cast<int>(m.integer("image", 224));
    c.classes = static_cast<int>(m.integer("classes", 1000));
    return c;
  }
  if (type == "unet2d") {
    m.allow({"latent", "channels", "text_tokens", "text_dim", "attention_heads"});
    UNet2DConfig c;
    c.name = name;
    c.latent = static_cast<int>(m.integer("latent", 64));
    c.channels = m.list("channels", c.channels);
    c.text_tokens = static_cast<int>(m.integer("text_tokens", 77));
    c.text_dim = m.integer("text_dim", 768);
    c.attention_heads = static_cast<int>(m.integer("attention_heads", 8));
    return c;
  }
  m.allow({"horizon", "action_dim", "channels", "kernel", "cond_dim"});
  UNet1DConfig c;
  c.name = name;
  c.horizon = static_cast<int>(m.integer("horizon", 16));
  c.action_dim = static_cast<int>(m.integer("action_dim", 10));
  c.channels = m.list("channels", c.channels);
  c.kernel = static_cast<int>(m.integer("kernel", 5));
  c.cond_dim = m.integer("cond_dim", 256);
  return c;
}
}  // namespace

ModelConfig load_model(const std::string& name_or_file) {
  if (auto p = preset(name_or_file)) return *p;
  const std::filesystem::path path(name_or_file);
  if (is_file(path)) return read_model_file(path);
  throw InputError(SourceLocation{}, "", "unknown model '" + name_or_file + "'" + did_you_mean(name_or_file, preset_names()) +
                                             "; give a preset or a model TOML file");
}

double layer_parameter_count(const TransformerConfig& t, int l) {
  const double d = double(t.d_model), hd = double(t.head_dim());
  const double qkv = d * (t.heads + 2.0 * t.kv_heads) * hd;
  const double out = t.heads * hd * d;
  const double per_mlp = (t.swiglu ? 3.0 : 2.0) * d;
  const double mlp = t.moe_layer(l) ? per_mlp * t.expert_ffn * (t.experts + t.shared_experts) + d * t.experts
                                    : per_mlp * t.ffn;
  const double norms = (t.rmsnorm ? 1.0 : 2.0) * 2 * d;
  const double biases = t.bias ? (t.heads + 2.0 * t.kv_heads) * hd + d + t.ffn + d : 0;
  return qkv + out + mlp + norms + biases;
}

double active_parameter_count(const TransformerConfig& t) {
  double p = parameter_count(ModelConfig{t});
  if (!t.moe()) return p;
  const double per_expert = (t.swiglu ? 3.0 : 2.0) * double(t.d_model) * t.expert_ffn;
  const int moe_layers = t.layers - std::min(t.layers, t.dense_layers);
  return p - moe_layers * per_expert * (t.experts - t.experts_per_token);
}

double parameter_count(const ModelConfig& model) {
  if (const auto* t = std::get_if<TransformerConfig>(&model)) {
    const double d = double(t->d_model);
    double layers = 0;
    for (int l = 0; l < t->layers; ++l) layers += layer_parameter_count(*t, l);
    const double embed = double(t->vocab) * d * (t->tied_embeddings ? 1 : 2);
    const double positions = t->rope ? 0 : double(t->max_positions) * d;
    const double final_norm = (t->rmsnorm ? 1.0 : 2.0) * d;
    return layers + embed + positions + final_norm;
  }
  if (const auto* r = std::get_if<ResNetConfig>(&model)) {
    double p = 3 * 64 * 7 * 7 + 2 * 64;
    long in = 64;
    for (size_t s = 0; s < r->blocks.size(); ++s) {
      const long w = 64L << s;
      for (int b = 0; b < r->blocks[s]; ++b) {
        p += double(in) * w + 9.0 * w * w + double(w) * 4 * w + 2.0 * (w + w + 4 * w);
        if (b == 0) p += double(in) * 4 * w + 2.0 * 4 * w;
        in = 4 * w;
      }
    }
    return p + double(in) * r->classes + r->classes;
  }
  if (const auto* u = std::get_if<UNet2DConfig>(&model)) {
    // Dominated by the ResNet and transformer blocks of each level (approximate count).
    double p = 0;
    for (size_t i = 0; i < u->channels.size(); ++i) {
      const double c = double(u->channels[i]);
      const bool attn = i + 1 < u->channels.size();
      const double res = 2 * 9 * c * c + 1280.0 * c;
      const double tr = attn ? (2 * c * c + 4 * c * c + c * u->text_dim * 2 + 12 * c * c) : 0;
      p += 5 * res + 5 * tr;
    }
    return p;
  }
  const auto& u = std::get<UNet1DConfig>(model);
  double p = 0;
  for (long c : u.channels) p += 6.0 * u.kernel * double(c) * c + 4.0 * double(c) * u.cond_dim;
  return p;
}

}  // namespace gpucast::wl
