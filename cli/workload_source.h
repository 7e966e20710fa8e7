#pragma once
// Where a command's workload comes from: a workload file, or a model (preset or model file) with
// run settings. Shared by predict, compare and sweep.
#include <optional>
#include <string>

#include <CLI/CLI.hpp>

#include "cli/atomic_output.h"
#include "hardware/gpu_spec.h"
#include "reports/model_report.h"
#include "workloads/generate.h"
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
  long max_kernels = wl::kDefaultMaxKernels;
};

void add_workload_source_options(CLI::App* cmd, WorkloadSourceOptions& o, bool with_dump = false);

struct ResolvedWorkload {
  wl::Workload workload;
  std::optional<wl::ModelConfig> config;
  std::optional<wl::GeneratedModel> model;
  wl::GenerateOptions options;
  double host_launch_us = 0;  // > 0: applied to every (re)generated workload
};

// Reads the workload file or generates the model's workload; throws UsageError when neither or
// both are given.
// --dump-workload is staged in `outputs` (written when the command succeeds).
[[nodiscard]] ResolvedWorkload resolve_workload(const WorkloadSourceOptions& o, PendingOutputs& outputs);
// Regenerates with changed options (sweeps over batch, seq, context, dtype).
[[nodiscard]] ResolvedWorkload regenerate(const ResolvedWorkload& base, const wl::GenerateOptions& options);
// The memory check and MFU reference for a generated model on `gpu`.
[[nodiscard]] reports::ModelRun model_run(const ResolvedWorkload& w, const hw::GpuSpec& gpu);

}  // namespace gpucast::cli
