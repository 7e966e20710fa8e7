#include "cli/system_run.h"

#include "cli/system_source.h"
#include "reports/parallel_report.h"
#include "sim/simulator.h"

namespace gpucast::cli {

SystemRun run_on_system(const ResolvedWorkload& source, const hw::SystemSpec& system,
                        const hw::HostSpec& host) {
  SystemRun r;
  r.gpus_used = source.model ? source.options.parallel.world() : system.total_gpus();
  if (source.model) check_layout_fits(system, source.options.parallel);
  sim::Simulator simulator(system, host);
  const auto p = simulator.predict(source.workload);  // points into the simulator: used before it goes
  r.summary = summarize(source, system.gpu, p);
  if (source.model && source.options.parallel.pp > 1) {
    const auto run = model_run(source, system.gpu);
    const auto pr = reports::analyze_parallel(system, source.workload, p, &run, source.options.parallel);
    const double scale = p.total_us / pr.step_us;
    r.summary.time_us = pr.step_us;
    r.summary.results_per_s *= scale;
    r.summary.items_per_s *= scale;
    r.summary.mfu *= scale;
  }
  return r;
}

}  // namespace gpucast::cli
