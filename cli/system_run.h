#pragma once
// A workload on a multi-GPU system, summarized for the whole job (what `cost` and `compare` price):
// the GPUs it uses and its speed. The workload is one rank's; under pipeline parallelism the step
// comes from the 1F1B schedule (reports::analyze_parallel), not from the one-microbatch prediction.
#include "cli/run_summary.h"
#include "hardware/host_spec.h"
#include "hardware/system_spec.h"

namespace gpucast::cli {

struct SystemRun {
  reports::RunSummary summary;
  int gpus_used = 1;  // the layout's GPUs (a generated model), or every GPU of the system (a file)
};

// Throws InputError when the layout needs more GPUs than the system has.
[[nodiscard]] SystemRun run_on_system(const ResolvedWorkload& source, const hw::SystemSpec& system,
                                      const hw::HostSpec& host);

}  // namespace gpucast::cli
