#pragma once
// A profiler trace as a command's workload: read, pick the step, find the source GPU in the
// catalog (deviceProperties name, SM count and memory) unless --source-gpu names it, import.
#include <memory>
#include <string>

#include "hardware/catalog.h"
#include "workloads/trace/trace_workload.h"

namespace gpucast::cli {

struct TraceSourceOptions {
  std::string file;
  std::string step;        // "" (last complete), "all", or a number
  std::string source_gpu;  // catalog id or .toml; "" = from the trace's device properties
};

[[nodiscard]] std::shared_ptr<trace::TraceImport> import_trace_file(const TraceSourceOptions& o,
                                                                    const hw::Catalog& catalog);

// The catalog id whose name, SM count and memory match the trace's first device; throws
// InputError asking for --source-gpu when none does.
[[nodiscard]] std::string match_source_gpu(const trace::KinetoTrace& t, const hw::Catalog& catalog);

}  // namespace gpucast::cli
