#include "cli/workload_source.h"

#include "cli/context.h"
#include "cli/trace_source.h"
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
  cmd->add_option("--dtype", o.dtype, "fp32 | tf32 | fp16 | bf16 | fp8 | int8 | fp6 | fp4 (weights and activations)")
      ->check(CLI::IsMember({"fp32", "tf32", "fp16", "bf16", "fp8", "int8", "fp6", "fp4"}));
  cmd->add_option("--attention", o.attention,
                  "attention kernels: auto (PyTorch's choice for the GPU: cuDNN on Hopper, FlashAttention-2 on "
                  "Ampere/Ada, memory-efficient before) | flash2 | flash3 | cudnn | efficient | math (unfused: QK^T, "
                  "softmax and PV as separate kernels); flash = auto, unfused = math")
      ->check(CLI::IsMember({"auto", "flash", "flash2", "flash3", "cudnn", "efficient", "math", "unfused"}));
  cmd->add_flag("--fuse", o.fuse, "fuse pointwise chains (as torch.compile would); default: eager PyTorch kernels");
  cmd->add_flag("--recompute", o.recompute, "activation recomputation in training");
  cmd->add_option("--host-launch-us", o.host_launch_us,
                  "host time of one kernel launch: replaces the host description's cuda.launch_us")
      ->check(CLI::Range(1e-6, 1e6));
  cmd->add_option("--precision", o.precision,
                  "training as PyTorch runs it: amp (fp32 master weights + bf16 autocast) | bf16 | fp16 | fp32 "
                  "(weights, grads and optimizer states in that type); default: the older --dtype generator")
      ->check(CLI::IsMember({"amp", "bf16", "fp16", "fp32"}));
  cmd->add_option("--optimizer", o.optimizer, "adamw (foreach, PyTorch's default) | adamw-fused | sgd (with --precision)")
      ->check(CLI::IsMember({"adamw", "adamw-fused", "sgd"}));
  cmd->add_flag("--clip-grad", o.clip_grad, "clip_grad_norm_ over all gradients before the step (with --precision)");
  cmd->add_option("--grad-accum", o.grad_accum, "micro-steps (forward + backward of --batch) per optimizer step")
      ->check(CLI::Range(1, 100000));
  cmd->add_option("--host", o.host,
                  "host that issues the work: hosts catalog id (generic, h100-box, ...) or .toml file; "
                  "default: generic")
      ->type_name("ID_OR_FILE");
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
  cmd->add_option("--tp", o.tp, "tensor-parallel degree (heads and MLP split, two all-reduces per layer)")
      ->check(CLI::Range(1, 65536));
  cmd->add_option("--pp", o.pp, "pipeline-parallel stages (1F1B schedule)")->check(CLI::Range(1, 65536));
  cmd->add_option("--dp", o.dp, "data-parallel replicas (--batch is the global batch)")->check(CLI::Range(1, 65536));
  cmd->add_option("--ep", o.ep, "expert-parallel degree (MoE models: all-to-all dispatch and combine)")
      ->check(CLI::Range(1, 65536));
  cmd->add_flag("--sp", o.sp, "sequence parallelism with --tp: reduce-scatter + all-gather instead of all-reduce");
  cmd->add_option("--microbatches", o.microbatches, "microbatches per pipeline step (with --pp)")
      ->check(CLI::Range(1, 100000));
  cmd->add_option("--zero", o.zero, "data-parallel state sharding: none | 1 | 2 | 3 (3 = FSDP full sharding)")
      ->check(CLI::IsMember({"none", "0", "1", "2", "3", "fsdp"}));
  cmd->add_option("--trace", o.trace,
                  "PyTorch profiler trace (export_chrome_trace, .json or .json.gz; record_shapes=True recommended)");
  cmd->add_option("--step", o.step, "with --trace: ProfilerStep number to replay, or 'all' (default: the last complete step)");
  cmd->add_option("--source-gpu", o.source_gpu,
                  "with --trace: the GPU it was recorded on (default: matched from the trace's deviceProperties)");
  cmd->add_option("--host-speed", o.host_speed,
                  "replayed host time (traces, host_delay_us) divides by this: 2 = a host twice as fast")
      ->check(CLI::Range(1e-3, 1e3));
  if (with_dump) cmd->add_option("--dump-workload", o.dump, "write the generated or traced workload to this file");
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
  g.flash_attention = o.attention != "unfused" && o.attention != "math";
  for (auto b : {wl::AttentionBackend::flash2, wl::AttentionBackend::flash3, wl::AttentionBackend::cudnn,
                 wl::AttentionBackend::efficient})
    if (o.attention == wl::attention_backend_name(b)) g.attention_backend = b;
  g.fused_elementwise = o.fuse;
  g.channels_last = o.layout != "nchw";
  g.recompute = o.recompute;
  g.launch = o.launch == "graph" ? wl::LaunchMode::graph : wl::LaunchMode::eager;
  g.layers = o.layers;
  g.max_kernels = o.max_kernels;
  g.parallel.tp = o.tp;
  g.parallel.pp = o.pp;
  g.parallel.dp = o.dp;
  g.parallel.ep = o.ep;
  g.parallel.sp = o.sp;
  g.parallel.microbatches = o.microbatches;
  g.parallel.zero = o.zero == "1" ? wl::Zero::os : o.zero == "2" ? wl::Zero::os_grad
                    : (o.zero == "3" || o.zero == "fsdp") ? wl::Zero::full : wl::Zero::none;
  g.precision = o.precision == "amp"    ? wl::Precision::amp
                : o.precision == "bf16" ? wl::Precision::bf16
                : o.precision == "fp16" ? wl::Precision::fp16
                : o.precision == "fp32" ? wl::Precision::fp32
                                        : wl::Precision::dtype;
  g.optimizer = o.optimizer == "adamw-fused" ? wl::Optimizer::adamw_fused
                : o.optimizer == "sgd"       ? wl::Optimizer::sgd
                                             : wl::Optimizer::adamw;
  g.clip_grad = o.clip_grad;
  g.grad_accum = o.grad_accum;
  return g;
}
}  // namespace

ResolvedWorkload resolve_workload(const WorkloadSourceOptions& o, const hw::Catalog& catalog,
                                  PendingOutputs& outputs) {
  if (int(!o.workload.empty()) + int(!o.model.empty()) + int(!o.trace.empty()) != 1)
    throw UsageError("give exactly one of --workload FILE, --model NAME_OR_FILE or --trace FILE");
  if (o.trace.empty() && (!o.step.empty() || !o.source_gpu.empty()))
    throw UsageError("--step and --source-gpu go with --trace");
  if (!o.trace.empty()) {
    if (!o.mode.empty() || o.seq > 0 || o.batch != 1 || o.fuse || o.recompute || o.attention != "flash" ||
        o.layout != "nhwc" || !o.launch.empty() || o.layers > 0)
      throw UsageError("--mode, --batch, --seq, --fuse, --recompute, --attention, --layout, --launch and --layers go with --model");
    auto imported = import_trace_file(TraceSourceOptions{o.trace, o.step, o.source_gpu}, catalog);
    auto w = imported->workload;
    if (o.host_speed > 0) w = w.with_host_speed(o.host_speed);
    if (o.host_launch_us > 0) w = w.with_host_launch_us(o.host_launch_us);
    if (!o.dump.empty()) emit(outputs, wl::write_workload(w), o.dump);
    ResolvedWorkload r{w, std::nullopt, std::nullopt, {}, o.host_launch_us, nullptr};
    r.trace = imported;
    return r;
  }
  if (!o.workload.empty()) {
    if (!o.mode.empty() || o.seq > 0 || o.batch != 1 || o.fuse || o.recompute || (o.attention != "flash" && o.attention != "auto") || !o.dump.empty() ||
        o.layout != "nhwc")
      throw UsageError(
          "--mode, --batch, --seq, --fuse, --recompute, --attention, --layout and --dump-workload go with --model");
    if (o.tp != 1 || o.pp != 1 || o.dp != 1 || o.ep != 1 || o.sp || o.microbatches != 1 || o.zero != "none")
      throw UsageError("--tp, --pp, --dp, --ep, --sp, --microbatches and --zero generate a model's layout: use --model");
    auto w = wl::read_workload_file(o.workload);
    if (o.host_launch_us > 0) w = w.with_host_launch_us(o.host_launch_us);
    if (o.host_speed > 0) w = w.with_host_speed(o.host_speed);
    return ResolvedWorkload{w, std::nullopt, std::nullopt, {}, o.host_launch_us, nullptr};
  }
  const auto config = wl::load_model(o.model);
  const auto options = options_for(config, o);
  auto generated = wl::generate(config, options);
  if (o.host_launch_us > 0) generated.workload = generated.workload.with_host_launch_us(o.host_launch_us);
  if (!o.dump.empty()) emit(outputs, wl::write_workload(generated.workload), o.dump);
  return ResolvedWorkload{generated.workload, config, generated, options, o.host_launch_us, nullptr};
}

ResolvedWorkload regenerate(const ResolvedWorkload& base, const wl::GenerateOptions& options) {
  if (!base.config) throw UsageError("this setting can be swept only for --model workloads");
  auto generated = wl::generate(*base.config, options);
  if (base.host_launch_us > 0) generated.workload = generated.workload.with_host_launch_us(base.host_launch_us);
  return ResolvedWorkload{generated.workload, base.config, generated, options, base.host_launch_us, nullptr};
}

std::vector<hw::Override> gpu_overrides(const std::vector<std::string>& sets) {
  return hw::parse_overrides(hw::split_host_overrides(sets).gpu);
}

hw::HostSpec load_host(const AppContext& ctx, const WorkloadSourceOptions& o, const std::vector<std::string>& sets) {
  return ctx.hosts.load(o.host.empty() ? std::string(hw::kDefaultHostId) : o.host, hw::split_host_overrides(sets).host);
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
