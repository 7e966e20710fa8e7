#pragma once
// The host that issues a GPU's work: the CPU and the framework (eager PyTorch) running on it, as
// per-category host costs in microseconds. Read from hardware/catalog/hosts/<id>.toml (or a file)
// by hw::HostCatalog with the same rules as GPU files: `extends`, --set host.KEY=VALUE, and
// file:line:key errors. Every figure says where it comes from in [sources].
#include <map>
#include <string>
#include <vector>

#include "common/toml_source.h"
#include "hardware/key_schema.h"

namespace gpucast::hw {

struct HostSpec {
  std::string id;      // catalog id or file stem
  std::string origin;  // file it was loaded from ("" when built in code)
  std::string name;
  std::string cpu;       // CPU model
  std::string software;  // e.g. "PyTorch 2.11, CUDA 12.8"

  // Eager framework, per call.
  double module_call_us = 0;  // framework.module_call_us: one nn.Module.__call__ (hooks, forward dispatch)
  double op_dispatch_us =
      0;  // framework.op_dispatch_us: one aten op from Python (binding, dispatcher, autocast)
  double autograd_node_us = 0;  // framework.autograd_node_us: one backward node run by the autograd engine
  double launch_us = 0;         // cuda.launch_us: one cudaLaunchKernel (runtime and driver)
  double library_call_us = 0;   // library.call_us: cuBLAS/cuDNN/SDPA setup of one library call, extra
  // Per kind of library call (library.gemm_us, .attention_us, .norm_us, .embedding_us); a kind
  // the file leaves out costs library_call_us. Negative = not given.
  double library_gemm_us = -1;
  double library_attention_us = -1;
  double library_norm_us = -1;
  double library_embedding_us = -1;
  // framework.grad_record_us: extra host time of one forward aten op run with grad enabled (the
  // autograd graph node it records and the tensors it saves), over the same op under no_grad.
  double grad_record_us = 0;
  // Optimizer step.
  double optimizer_step_us = 0;   // optimizer.step_us: Python of one optimizer.step() (param groups, state)
  double optimizer_param_us = 0;  // optimizer.param_us: Python per parameter per step (_init_group, checks)
  double foreach_tensor_us = 0;   // optimizer.foreach_tensor_us: per tensor per foreach op (list building)
  // framework.fsdp_group_us: one FSDP2 group's Python per training step (its pre/post forward and
  // backward hooks, the bookkeeping around its all-gathers, copies and reduce-scatter).
  double fsdp_group_us = 0;
  double fused_step_per_tensor_us = 0;  // optimizer.fused_tensor_us: per tensor of a fused AdamW step
  // Synchronization.
  double sync_us = 0;  // sync.item_us: host cost of .item()/.cpu() besides waiting for the GPU
  // CUDA graphs.
  double graph_replay_us = 0;      // graph.replay_us: one cudaGraphLaunch
  double graph_per_kernel_us = 0;  // graph.per_kernel_us: host cost per kernel node of a replay
  // torch.compile.
  double compile_guard_us = 0;   // compile.guard_us: guard checks of one compiled-region call
  double compile_launch_us = 0;  // compile.launch_us: host cost of one generated (Triton) kernel launch
  // framework.model_factor: a real model's eager host time per call over the probe's tight-loop
  // figure (attribute lookups, argument handling, allocator and cache misses of real model code);
  // multiplies the framework, launch, library and optimizer categories.
  double model_factor = 1;

  // The extra host time of one library call of a kind (the per-kind key where given, else library.call_us).
  enum class LibraryKind { other, gemm, attention, norm, embedding };
  [[nodiscard]] double library_us(LibraryKind kind) const;

  FlatTable values;                            // every resolved key with where it came from
  std::map<std::string, std::string> sources;  // key path or section -> source text
};

// Every scalar key of a host description, in documentation order.
[[nodiscard]] const std::vector<KeyDef>& host_keys();
[[nodiscard]] const KeyDef* find_host_key(std::string_view path);
[[nodiscard]] std::vector<std::string> host_key_names();

// Builds the typed spec from resolved values (every required key present).
[[nodiscard]] HostSpec build_host_spec(const std::string& id, const std::string& origin,
                                       const FlatTable& values, const FlatTable& sources);

// A host built from a GPU file's eager launch keys (launch.host_eager_us is one aten op with its
// launch, launch.host_library_us a library call's extra); every other category is zero. Library
// callers that give no host description get this, which reproduces the flat per-kernel charge.
struct GpuSpec;
[[nodiscard]] HostSpec host_from_gpu(const GpuSpec& gpu);

}  // namespace gpucast::hw
