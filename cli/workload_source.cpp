#include "cli/workload_source.h"

#include "cli/context.h"
#include "common/errors.h"
#include "workloads/memory_advice.h"
#include "workloads/workload_file.h"

namespace gpucast::cli {

void add_workload_source_options(CLI::App* cmd, WorkloadSourceOptions& o, bool with_dump) {
  cmd->add_option("--workload", o.workload, "workload file (TOML)");
  cmd->add_option("--model", o.model, "model preset (gpt2, llama-3-8b, resnet50, ...) or model TOML file");
  cmd->add_option("--mode", o.mode, "train | prefill | decode | inference (default: prefill for LLMs, else inference)")
      ->check(CLI::IsMember({"train", "prefill", "decode", "inference"}));
  cmd->add_option("--batch", o.batch, "sequences or images per step")->check(CLI::Range(1L, wl::kMaxBatch));
  cmd->add_option("--seq", o.seq, "tokens per sequence (prefill, train, encoders)")->check(CLI::Range(1L, wl::kMaxSeq));
  cmd->add_option("--context", o.context, "tokens already in the KV cache (decode)")->check(CLI::Range(0L, wl::kMaxSeq));
  cmd->add_option("--dtype", o.dtype, "fp32 | tf32 | fp16 | bf16 | fp8 | int8 (weights and activations)")
      ->check(CLI::IsMember({"fp32", "tf32", "fp16", "bf16", "fp8", "int8"}));
  cmd->add_option("--attention", o.attention, "flash | unfused")->check(CLI::IsMember({"flash", "unfused"}));
  cmd->add_flag("--fuse", o.fuse, "fuse pointwise chains (as torch.compile would); default: eager PyTorch kernels");
  cmd->add_flag("--recompute", o.recompute, "activation recomputation in training");
  cmd->add_option("--host-launch-us", o.host_launch_us,
                  "eager host time per kernel (default: the GPU's launch.host_eager_us, a lean PyTorch loop; "
                  "nn.Module-heavy models pay 15-40 us)")
      ->check(CLI::Range(1e-6, 1e6));
  cmd->add_option("--layers", o.layers, "override a transformer's layer count (one-layer studies)")
      ->check(CLI::Range(1, 100000));
  cmd->add_option("--max-kernels", o.max_kernels,
                  "the most kernels a generated workload may hold (default 1000000)")
      ->check(CLI::Range(1L, 100000000L));
  cmd->add_option("--layout", o.layout,
                  "CNN activation layout: nhwc (channels_last, default) | nchw (cuDNN transposes around "
                  "tensor-core convolutions)")
      ->check(CLI::IsMember({"nhwc", "nchw"}));
  cmd->add_option("--launch", o.launch, "eager | graph (CUDA graph replay)")->check(CLI::IsMember({"eager", "graph"}));
  if (with_dump) cmd->add_option("--dump-workload", o.dump, "write the generated workload to this file");
}

namespace {
wl::GenerateOptions options_for(const wl::ModelConfig& config, const WorkloadSourceOptions& o) {
  wl::GenerateOptions g;
  const auto* t = std::get_if<wl::TransformerConfig>(&config);
  const bool llm = t && t->decoder;
  const std::string mode = o.mode.empty() ? (llm ? "prefill" : "inference") : o.mode;
  g.mode = mode == "train" ? wl::Mode::train : mode == "prefill" ? wl::Mode::prefill
           : mode == "decode" ? wl::Mode::decode : wl::Mode::inference;
  g.batch = o.batch;
  g.seq = o.seq > 0 ? o.seq : (t && !t->decoder ? 128 : 2048);
  g.context = o.context;
  g.dtype = *parse_dtype(o.dtype);
  g.flash_attention = o.attention != "unfused";
  g.fused_elementwise = o.fuse;
  g.channels_last = o.layout != "nchw";
  g.recompute = o.recompute;
  g.launch = o.launch == "graph" ? wl::LaunchMode::graph : wl::LaunchMode::eager;
  g.layers = o.layers;
  g.max_kernels = o.max_kernels;
  return g;
}
}  // namespace

ResolvedWorkload resolve_workload(const WorkloadSourceOptions& o, PendingOutputs& outputs) {
  if (o.workload.empty() == o.model.empty())
    throw UsageError("give exactly one of --workload FILE or --model NAME_OR_FILE");
  if (!o.workload.empty()) {
    if (!o.mode.empty() || o.seq > 0 || o.batch != 1 || o.fuse || o.recompute || o.attention != "flash" || !o.dump.empty() ||
        o.layout != "nhwc")
      throw UsageError(
          "--mode, --batch, --seq, --fuse, --recompute, --attention, --layout and --dump-workload go with --model");
    auto w = wl::read_workload_file(o.workload);
    if (o.host_launch_us > 0) w = w.with_host_launch_us(o.host_launch_us);
    return ResolvedWorkload{w, std::nullopt, std::nullopt, {}, o.host_launch_us};
  }
  const auto config = wl::load_model(o.model);
  const auto options = options_for(config, o);
  auto generated = wl::generate(config, options);
  if (o.host_launch_us > 0) generated.workload = generated.workload.with_host_launch_us(o.host_launch_us);
  if (!o.dump.empty()) emit(outputs, wl::write_workload(generated.workload), o.dump);
  return ResolvedWorkload{generated.workload, config, generated, options, o.host_launch_us};
}

ResolvedWorkload regenerate(const ResolvedWorkload& base, const wl::GenerateOptions& options) {
  if (!base.config) throw UsageError("this setting can be swept only for --model workloads");
  auto generated = wl::generate(*base.config, options);
  if (base.host_launch_us > 0) generated.workload = generated.workload.with_host_launch_us(base.host_launch_us);
  return ResolvedWorkload{generated.workload, base.config, generated, options, base.host_launch_us};
}

reports::ModelRun model_run(const ResolvedWorkload& w, const hw::GpuSpec& gpu) {
  reports::ModelRun run;
  run.model = *w.model;
  run.fit = wl::check_fit(*w.config, w.options, run.model.memory, gpu.memory.capacity_gb * 1e9);
  const DataType t = w.options.dtype;
  if (t == DataType::fp32) run.peak_tflops = gpu.compute.fp32_tflops;
  else if (gpu.has_tensor(t)) run.peak_tflops = gpu.tensor_tflops(t);
  return run;
}

}  // namespace gpucast::cli
