#pragma once
// Where a command's workload comes from: a workload file, or a model (preset or model file) with
// run settings. Shared by predict, compare and sweep.
#include <memory>
#include <optional>
#include <string>

#include <CLI/CLI.hpp>

#include "cli/atomic_output.h"
#include "hardware/catalog.h"
#include "cli/context.h"
#include "hardware/gpu_spec.h"
#include "hardware/host_spec.h"
#include "reports/model_report.h"
#include "workloads/generate.h"
#include "workloads/trace/trace_workload.h"
#include "workloads/workload.h"

namespace gpucast::cli {

struct WorkloadSourceOptions {
  std::string workload;
  std::string model;
  std::string mode;
  long batch = 1;
  long seq = 0;  // 0: the model family's default
  long context = 4096;
  std::string dtype = "bf16";
  std::string attention = "flash";
  bool fuse = false;
  bool recompute = false;
  std::string launch;
  std::string layout = "nhwc";
  std::string dump;
  int layers = 0;
  double host_launch_us = 0;
  // Parallel layout (transformers): one rank's workload is generated.
  int tp = 1, pp = 1, dp = 1, ep = 1, microbatches = 1;
  bool sp = false;
  std::string zero = "none";
  std::string trace;        // profiler trace (Kineto Chrome trace, plain or .json.gz)
  std::string step;         // --step: a ProfilerStep number or "all"
  std::string source_gpu;   // --source-gpu: the GPU the trace was recorded on
  double host_speed = 0;    // --host-speed: replayed host time divides by it
  std::string precision;  // "" = by --dtype (the older training generator)
  std::string optimizer = "adamw";
  bool clip_grad = false;
  int grad_accum = 1;
  std::string host;  // host description id or file; "" = hw::kDefaultHostId
  long max_kernels = wl::kDefaultMaxKernels;
};

void add_workload_source_options(CLI::App* cmd, WorkloadSourceOptions& o, bool with_dump = false);

struct ResolvedWorkload {
  wl::Workload workload;
  std::optional<wl::ModelConfig> config;
  std::optional<wl::GeneratedModel> model;
  wl::GenerateOptions options;
  double host_launch_us = 0;  // > 0: applied to every (re)generated workload
  std::shared_ptr<const trace::TraceImport> trace;  // set for --trace: the source measurements
};

// Reads the workload file or the trace, or generates the model's workload; throws UsageError when
// none or several are given. --dump-workload is staged in `outputs` (written when the command
// succeeds).
[[nodiscard]] ResolvedWorkload resolve_workload(const WorkloadSourceOptions& o, const hw::Catalog& catalog,
                                                PendingOutputs& outputs);
// Regenerates with changed options (sweeps over batch, seq, context, dtype).
[[nodiscard]] ResolvedWorkload regenerate(const ResolvedWorkload& base, const wl::GenerateOptions& options);
// --set assignments for the GPU (host.<host key> ones left out).
[[nodiscard]] std::vector<hw::Override> gpu_overrides(const std::vector<std::string>& sets);
// The --host description with the --set host.<key> overrides applied.
[[nodiscard]] hw::HostSpec load_host(const AppContext& ctx, const WorkloadSourceOptions& o,
                                     const std::vector<std::string>& sets);

// The memory check and MFU reference for a generated model on `gpu`.
[[nodiscard]] reports::ModelRun model_run(const ResolvedWorkload& w, const hw::GpuSpec& gpu);

}  // namespace gpucast::cli
