#pragma once
// What would change a run's host/GPU balance, each predicted by re-running the simulation with the
// change: CUDA graphs, torch.compile (fused kernels, compiled launches), twice the batch, a faster CPU.
#include <vector>

#include "cli/workload_source.h"
#include "hardware/host_spec.h"
#include "reports/host_report.h"
#include "sim/simulator.h"

namespace gpucast::cli {

// How much faster the "faster CPU" alternative is (host costs divided by it).
inline constexpr double kFasterCpuFactor = 1.5;

[[nodiscard]] hw::HostSpec scaled_host(const hw::HostSpec& host, double factor);

// Empty for graph-mode runs (the host issues one replay).
[[nodiscard]] std::vector<reports::HostAlternative> host_alternatives(const ResolvedWorkload& source,
                                                                      const hw::GpuSpec& gpu,
                                                                      const hw::HostSpec& host,
                                                                      const sim::Prediction& base);
// The same for one rank of a multi-GPU system; an FSDP2 step (--precision with --zero 3) also gets
// DistributedDataParallel, whose host work per step is far smaller.
[[nodiscard]] std::vector<reports::HostAlternative> host_alternatives(const ResolvedWorkload& source,
                                                                      const hw::SystemSpec& system,
                                                                      const hw::HostSpec& host,
                                                                      const sim::Prediction& base);

}  // namespace gpucast::cli
