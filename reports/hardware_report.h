#pragma once
// Hardware descriptions as tables and JSON (`gpucast hw list`, `gpucast hw show`).
#include <vector>

#include "hardware/gpu_spec.h"
#include "reports/json.h"
#include "reports/table.h"

namespace gpucast::reports {

// One row per GPU: id, architecture, SMs, memory, bandwidth, dense BF16, TDP, price.
[[nodiscard]] Table hardware_list_table(const std::vector<hw::GpuSpec>& gpus);
[[nodiscard]] Json hardware_list_json(const std::vector<hw::GpuSpec>& gpus);

// Every resolved key with its unit and where its value came from.
[[nodiscard]] Table hardware_detail_table(const hw::GpuSpec& gpu);
// Nested objects following the TOML key paths, plus "id", "cloud" and "sources".
[[nodiscard]] Json hardware_to_json(const hw::GpuSpec& gpu);

}  // namespace gpucast::reports
