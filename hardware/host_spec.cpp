#include "hardware/host_spec.h"

#include <algorithm>

#include "hardware/gpu_spec.h"

namespace gpucast::hw {
namespace {
using K = ValueKind;
using R = Rule;
constexpr bool kReq = true;
constexpr bool kOpt = false;

double number(const FlatTable& values, const std::string& path) {
  auto it = values.find(path);
  return it == values.end() ? 0.0 : *scalar_as_number(it->second.value);
}
std::string text(const FlatTable& values, const std::string& path) {
  auto it = values.find(path);
  return it == values.end() ? std::string{} : std::get<std::string>(it->second.value);
}
}  // namespace

const std::vector<KeyDef>& host_keys() {
  static const std::vector<KeyDef> kKeys = with_ranges({
      {"name", K::string, "", kReq, R::none, "what the host is, e.g. \"H100 SXM box (Xeon 8480+)\""},
      {"cpu", K::string, "", kOpt, R::none, "CPU model as /proc/cpuinfo names it"},
      {"software", K::string, "", kOpt, R::none, "framework and versions the costs were measured with"},
      {"extends", K::string, "", kOpt, R::none,
       "host catalog id or .toml path to inherit from, then override"},
      {"notes", K::string, "", kOpt, R::none, "free text"},

      {"framework.module_call_us", K::number, "us", kReq, R::non_negative,
       "host time of one nn.Module call around its ops (__call__, hooks, forward dispatch)"},
      {"framework.op_dispatch_us", K::number, "us", kReq, R::non_negative,
       "host time of one aten op called from Python, launch excluded (binding, dispatcher, autocast)"},
      {"framework.autograd_node_us", K::number, "us", kReq, R::non_negative,
       "host time of one backward node run by the autograd engine, its kernels' launches excluded"},
      {"framework.model_factor", K::number, "x", kOpt, R::positive,
       "real model code's eager host time per call over the probe's tight-loop figures (default 1); "
       "multiplies "
       "the framework, launch, library and optimizer categories"},
      {"cuda.launch_us", K::number, "us", kReq, R::positive,
       "host time of one kernel launch (runtime and driver)"},
      {"library.call_us", K::number, "us", kReq, R::non_negative,
       "extra host time of one library call (cuBLAS/cuDNN heuristics and descriptors, SDPA dispatch)"},
      {"library.gemm_us", K::number, "us", kOpt, R::non_negative,
       "extra host time of one GEMM library call (nn.Linear's matmul/addmm: cuBLASLt heuristics); "
       "default library.call_us"},
      {"library.attention_us", K::number, "us", kOpt, R::non_negative,
       "extra host time of one scaled_dot_product_attention call (backend selection, cuDNN/flash "
       "setup); default library.call_us"},
      {"library.norm_us", K::number, "us", kOpt, R::non_negative,
       "extra host time of one fused norm call (F.layer_norm / F.rms_norm); default library.call_us"},
      {"library.embedding_us", K::number, "us", kOpt, R::non_negative,
       "extra host time of one embedding lookup (F.embedding: index checks, index_select); default "
       "library.call_us"},
      {"framework.grad_record_us", K::number, "us", kOpt, R::non_negative,
       "extra host time of one forward aten op run with grad enabled (recording its autograd node and "
       "saved tensors) over the same op under no_grad (default 0)"},
      {"framework.fsdp_group_us", K::number, "us", kOpt, R::non_negative,
       "host time of one FSDP2 group (fully_shard module) per training step: its four hooks and the "
       "bookkeeping around its all-gathers, copies and reduce-scatter (default 0)"},
      {"optimizer.step_us", K::number, "us", kReq, R::non_negative,
       "fixed Python time of one optimizer.step() (param groups, state, step counters)"},
      {"optimizer.param_us", K::number, "us", kReq, R::non_negative,
       "Python time per parameter tensor of one optimizer.step() (gathering params, grads and states)"},
      {"optimizer.foreach_tensor_us", K::number, "us", kReq, R::non_negative,
       "host time per tensor per foreach op (tensor lists, multi_tensor_apply chunking)"},
      {"optimizer.fused_tensor_us", K::number, "us", kReq, R::non_negative,
       "host time per tensor of a fused AdamW step (fused=True)"},
      {"sync.item_us", K::number, "us", kReq, R::non_negative,
       "host time of one .item()/.cpu() besides the wait for the GPU (copy, stream sync return)"},
      {"graph.replay_us", K::number, "us", kReq, R::non_negative, "host time of one CUDA graph replay call"},
      {"graph.per_kernel_us", K::number, "us", kReq, R::non_negative,
       "host time per kernel node of a CUDA graph replay"},
      {"compile.guard_us", K::number, "us", kReq, R::non_negative,
       "host time of one torch.compile'd region call: guards and the wrapper"},
      {"compile.launch_us", K::number, "us", kReq, R::positive,
       "host time of one kernel launch from compiled code (Inductor's Triton launcher or library call)"},

      {"calibration.host", K::string, "", kOpt, R::none, "the machine a measured profile was measured on"},
      {"calibration.date", K::string, "", kOpt, R::none, "when it was measured"},
      {"calibration.measurements", K::string, "", kOpt, R::none, "the raw probe file the profile came from"},
  });
  return kKeys;
}

const KeyDef* find_host_key(std::string_view path) {
  for (const auto& key : host_keys())
    if (key.path == path) return &key;
  return nullptr;
}

std::vector<std::string> host_key_names() {
  std::vector<std::string> names;
  for (const auto& key : host_keys()) {
    names.emplace_back(key.path);
    const std::string_view path = key.path;
    if (const auto dot = path.find('.'); dot != std::string_view::npos)
      names.emplace_back(path.substr(0, dot));
  }
  names.emplace_back("sources");
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return names;
}

HostSpec build_host_spec(const std::string& id, const std::string& origin, const FlatTable& values,
                         const FlatTable& sources) {
  HostSpec h;
  h.id = id;
  h.origin = origin;
  h.name = text(values, "name");
  h.cpu = text(values, "cpu");
  h.software = text(values, "software");
  h.module_call_us = number(values, "framework.module_call_us");
  h.op_dispatch_us = number(values, "framework.op_dispatch_us");
  h.autograd_node_us = number(values, "framework.autograd_node_us");
  h.launch_us = number(values, "cuda.launch_us");
  h.library_call_us = number(values, "library.call_us");
  h.optimizer_step_us = number(values, "optimizer.step_us");
  h.optimizer_param_us = number(values, "optimizer.param_us");
  h.foreach_tensor_us = number(values, "optimizer.foreach_tensor_us");
  h.fused_step_per_tensor_us = number(values, "optimizer.fused_tensor_us");
  h.sync_us = number(values, "sync.item_us");
  h.graph_replay_us = number(values, "graph.replay_us");
  h.graph_per_kernel_us = number(values, "graph.per_kernel_us");
  h.compile_guard_us = number(values, "compile.guard_us");
  h.compile_launch_us = number(values, "compile.launch_us");
  h.model_factor = values.count("framework.model_factor") ? number(values, "framework.model_factor") : 1.0;
  h.fsdp_group_us = values.count("framework.fsdp_group_us") ? number(values, "framework.fsdp_group_us") : 0.0;
  auto optional = [&](const char* path) { return values.count(path) ? number(values, path) : -1.0; };
  h.library_gemm_us = optional("library.gemm_us");
  h.library_attention_us = optional("library.attention_us");
  h.library_norm_us = optional("library.norm_us");
  h.library_embedding_us = optional("library.embedding_us");
  h.grad_record_us =
      values.count("framework.grad_record_us") ? number(values, "framework.grad_record_us") : 0.0;
  h.values = values;
  for (const auto& [path, value] : sources) h.sources[path] = std::get<std::string>(value.value);
  return h;
}

double HostSpec::library_us(LibraryKind kind) const {
  double v = -1;
  switch (kind) {
    case LibraryKind::gemm:
      v = library_gemm_us;
      break;
    case LibraryKind::attention:
      v = library_attention_us;
      break;
    case LibraryKind::norm:
      v = library_norm_us;
      break;
    case LibraryKind::embedding:
      v = library_embedding_us;
      break;
    case LibraryKind::other:
      break;
  }
  return v >= 0 ? v : library_call_us;
}

HostSpec host_from_gpu(const GpuSpec& gpu) {
  HostSpec h;
  h.id = gpu.id + "-launch-keys";
  h.name = "flat eager launch costs of " + gpu.id;
  h.launch_us = gpu.launch.host_eager_us;
  h.library_call_us = gpu.launch.host_library_us;
  h.graph_replay_us = gpu.launch.kernel_us;
  h.compile_launch_us = gpu.launch.host_eager_us;
  return h;
}

}  // namespace gpucast::hw
