#include "cli/host_alternatives.h"

#include <functional>
#include <utility>

#include "reports/units.h"

namespace gpucast::cli {

hw::HostSpec scaled_host(const hw::HostSpec& host, double factor) {
  hw::HostSpec h = host;
  for (double* v :
       {&h.module_call_us,      &h.op_dispatch_us,           &h.autograd_node_us,  &h.grad_record_us,
        &h.launch_us,           &h.library_call_us,          &h.library_gemm_us,   &h.library_attention_us,
        &h.library_norm_us,     &h.library_embedding_us,     &h.optimizer_step_us, &h.optimizer_param_us,
        &h.foreach_tensor_us,   &h.fused_step_per_tensor_us, &h.sync_us,           &h.graph_replay_us,
        &h.graph_per_kernel_us, &h.compile_guard_us,         &h.compile_launch_us, &h.fsdp_group_us})
    *v /= factor;
  return h;
}

namespace {
// One re-run: its step time and whether the host bounds it.
using Rerun = std::function<std::pair<double, bool>(const wl::Workload&, const hw::HostSpec&)>;

std::vector<reports::HostAlternative> alternatives(const ResolvedWorkload& source, const hw::HostSpec& host,
                                                   const sim::Prediction& base, const Rerun& rerun) {
  std::vector<reports::HostAlternative> out;
  if (base.launch != wl::LaunchMode::eager) return out;
  const double items = source.model ? source.model->items : 1;
  auto run = [&](const std::string& change, const std::string& how, const wl::Workload& w,
                 const hw::HostSpec& h, double alt_items) {
    const auto [total_us, host_bound] = rerun(w, h);
    out.push_back({change, how, total_us, alt_items, host_bound});
  };
  const auto& par = source.options.parallel;
  if (source.model && source.options.precision != wl::Precision::dtype && par.dp > 1 &&
      par.zero == wl::Zero::full) {
    auto options = source.options;
    options.parallel.zero = wl::Zero::none;
    run("DDP instead of FSDP2", "--zero none (memory: check the fit)", regenerate(source, options).workload,
        host, items);
  }
  if (source.model) {
    auto options = source.options;
    options.launch = wl::LaunchMode::graph;
    run("CUDA graphs", "--launch graph", regenerate(source, options).workload, host, items);
    if (!source.options.fused_elementwise) {
      options = source.options;
      options.fused_elementwise = true;
      run("torch.compile", "--fuse", regenerate(source, options).workload, host, items);
    }
    options = source.options;
    options.batch *= 2;
    const auto doubled = regenerate(source, options);
    run("twice the batch", "--batch " + std::to_string(options.batch) + " (memory: check the fit)",
        doubled.workload, host, doubled.model->items);
  } else {
    const auto& w = source.workload;
    run("CUDA graphs", "launch = \"graph\" in the workload file",
        wl::Workload::build(w.name(), wl::LaunchMode::graph, w.kernels(), w.host_launch_us(), w.origin()),
        host, items);
  }
  run("a " + reports::fixed(kFasterCpuFactor, 1) + "x faster CPU",
      "--set host.*: every host cost / " + reports::fixed(kFasterCpuFactor, 1), source.workload,
      scaled_host(host, kFasterCpuFactor), items);
  return out;
}
}  // namespace

std::vector<reports::HostAlternative> host_alternatives(const ResolvedWorkload& source,
                                                        const hw::GpuSpec& gpu, const hw::HostSpec& host,
                                                        const sim::Prediction& base) {
  return alternatives(source, host, base, [&](const wl::Workload& w, const hw::HostSpec& h) {
    sim::Simulator simulator(gpu, h);
    const auto p = simulator.predict(w);
    return std::make_pair(p.total_us, p.host_bound());
  });
}

std::vector<reports::HostAlternative> host_alternatives(const ResolvedWorkload& source,
                                                        const hw::SystemSpec& system,
                                                        const hw::HostSpec& host,
                                                        const sim::Prediction& base) {
  return alternatives(source, host, base, [&](const wl::Workload& w, const hw::HostSpec& h) {
    sim::Simulator simulator(system, h);
    const auto p = simulator.predict(w);
    return std::make_pair(p.total_us, p.host_bound());
  });
}

}  // namespace gpucast::cli
