#pragma once
// Hardware descriptions as tables and JSON (`gpucast hw list`, `gpucast hw show`).
#include <vector>

#include "hardware/gpu_spec.h"
#include "reports/json.h"
#include "reports/report.h"
#include "reports/table.h"

namespace gpucast::reports {

// One row per GPU: id, architecture, SMs, memory, bandwidth, dense BF16, TDP, price.
[[nodiscard]] Table hardware_list_table(const std::vector<hw::GpuSpec>& gpus);
[[nodiscard]] Json hardware_list_json(const std::vector<hw::GpuSpec>& gpus);

// Every resolved key with its unit and where its value came from.
[[nodiscard]] Table hardware_detail_table(const hw::GpuSpec& gpu);
// Nested objects following the TOML key paths, plus "id", "cloud" and "sources".
[[nodiscard]] Json hardware_to_json(const hw::GpuSpec& gpu);

// `hw list` as a report: the table, raw CSV columns, JSON, and a chart of bandwidth against
// dense BF16 rate (where each GPU sits between memory-bound and compute-bound work).
[[nodiscard]] Report hardware_list_report(const std::vector<hw::GpuSpec>& gpus);
// `hw show` as a report: every key with its source, and the GPU's roofline ceilings.
[[nodiscard]] Report hardware_detail_report(const hw::GpuSpec& gpu);

}  // namespace gpucast::reports
