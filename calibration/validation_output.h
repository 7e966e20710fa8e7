#pragma once
// Validation results as tables and JSON: error per op family and split, the worst cases, every case.
#include "calibration/validation_report.h"
#include "reports/json.h"
#include "reports/report.h"
#include "reports/table.h"

namespace gpucast::calib {

[[nodiscard]] reports::Table family_table(const ValidationReport& r);
[[nodiscard]] reports::Table cases_table(const std::vector<const ValidationCase*>& cases);
[[nodiscard]] reports::Json validation_json(const ValidationReport& r);
// Every case with raw numbers, for scripts (docs/report-formats.md).
[[nodiscard]] reports::Table cases_csv_table(const ValidationReport& r);

// Predicted against measured, log-log, with the y = x line and +-10% bands; MAPE in the title.
[[nodiscard]] reports::Chart predicted_vs_measured_chart(const ValidationReport& r);
// MAPE per op family, test and dev split side by side.
[[nodiscard]] reports::Chart family_error_chart(const ValidationReport& r);

// The whole validation as a report: headline, error per family, the worst `worst` cases (or every
// case), both charts; CSV lists every case.
[[nodiscard]] reports::Report validation_document(const ValidationReport& r, bool all_cases, size_t worst);

}  // namespace gpucast::calib
