#pragma once
// Measurements users bring: one row per kernel with its measured time, in three formats
// (docs/report-formats.md, "Your measurements"):
//   - gpucast CSV: a header row; `op` and `measured_us` (or `measured_ms`, `measured_ns`) columns,
//     an optional `name`, every other column an op parameter as in workload files (empty = unset);
//   - gpucast JSON: {"kernels": [{"name", "op", "params": {...}, "measured_us"}]} (or the bare array);
//   - Nsight Compute's `ncu --csv --page details` export: one kernel per ID, with its name, grid and
//     block, Duration, DRAM bytes (dram__bytes.sum, or Memory Throughput x Duration) and the Speed Of
//     Light percentages; units (nsecond/usecond/msecond, byte/Kbyte/Mbyte/Gbyte, byte/second...) and
//     thousands separators ("1,234.5" or "1.234,5") are read. Its rows name kernels, not ops: they are
//     paired in order with the kernels of a workload file.
#include <optional>
#include <string>
#include <vector>

#include "calibration/validation_report.h"
#include "common/errors.h"
#include "workloads/op_params.h"
#include "workloads/workload.h"

namespace gpucast::calib {

struct MeasuredKernel {
  std::string name;
  std::string op;          // empty for Nsight Compute rows
  wl::ParamMap params;     // op parameters (gpucast formats)
  double measured_us = 0;  // finite, > 0
  SourceLocation where;    // the row
  // Nsight Compute extras (absent for gpucast formats).
  std::string grid, block;
  std::optional<double> dram_bytes;
  std::optional<double> sm_throughput_pct;      // "Compute (SM) Throughput"
  std::optional<double> memory_throughput_pct;  // "Memory Throughput" (%)
  std::optional<double> dram_throughput_pct;    // "DRAM Throughput"
};

enum class MeasuredFormat { gpucast_csv, gpucast_json, ncu_csv };

struct MeasuredFile {
  MeasuredFormat format = MeasuredFormat::gpucast_csv;
  std::vector<MeasuredKernel> kernels;
};

// Reads any of the three formats (told apart by content). Throws InputError naming file:line and
// the column or key for anything malformed, missing, non-finite or out of range.
[[nodiscard]] MeasuredFile read_measured(const std::string& path);
[[nodiscard]] MeasuredFile read_measured_text(const std::string& text, const std::string& origin);

// A number as Nsight Compute or a spreadsheet writes it: "1,234.5", "1.234,5", "1 234,5", "12.5".
// Returns nullopt when it is not a number.
[[nodiscard]] std::optional<double> parse_localized_number(const std::string& text);
// Scale to microseconds / bytes / bytes per second for a unit Nsight Compute prints; nullopt when
// the unit is not one of those.
[[nodiscard]] std::optional<double> time_unit_to_us(const std::string& unit);
[[nodiscard]] std::optional<double> byte_unit_to_bytes(const std::string& unit);

// Predicts every measured kernel on `gpu` and sets measured beside predicted, with speed-of-light
// figures. Nsight Compute rows pair in order with `workload`'s kernels (required for them; an
// InputError when missing or when the counts differ). Cases count as "test": never tuned on.
[[nodiscard]] ValidationReport validate_measured(const MeasuredFile& file, const std::string& origin,
                                                 const hw::GpuSpec& gpu, const wl::Workload* workload);

}  // namespace gpucast::calib
