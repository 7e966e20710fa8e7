#pragma once
// Validation results as tables and JSON: error per op family and split, the worst cases, every case.
#include "calibration/validation_report.h"
#include "reports/json.h"
#include "reports/table.h"

namespace gpucast::calib {

[[nodiscard]] reports::Table family_table(const ValidationReport& r);
[[nodiscard]] reports::Table cases_table(const std::vector<const ValidationCase*>& cases);
[[nodiscard]] reports::Json validation_json(const ValidationReport& r);

}  // namespace gpucast::calib
