#pragma once
// Hand-set values that replace fitted ones in a calibrated profile. A fit can be wrong in a way its
// own residual does not show (a curve whose window moves its answer); the value that replaces it
// lives in its own file beside the raw data, with the evidence for it, so that a refit
// (calibration/refit.sh) reproduces the committed profile exactly and the profile still says which
// values were measured and which were set by hand.
//
// File format (TOML), one table per replaced key:
//   ["efficiency.memory_parallelism"]
//   value = 0.947
//   how = "pointer-chase 337 ns over 356 ns (hand-set)"   # the profile line's comment
//   source = "hand-set 2026-11-26 from ...: the evidence"  # written under [sources]
#include <filesystem>
#include <string>
#include <vector>

#include "calibration/fit.h"
#include "common/errors.h"

namespace gpucast::calib {

struct Adjustment {
  std::string key;  // a fitted key path, e.g. "launch.queued_kernel_us"
  double value = 0;
  std::string how;
  std::string source;
  SourceLocation where;  // the key's table in the file, for errors
};

// Reads an adjustments file; an unreadable file, a syntax error, a missing or mistyped field, or a
// value that is not a positive finite number is an InputError naming file:line:column and the key.
[[nodiscard]] std::vector<Adjustment> read_adjustments(const std::filesystem::path& file);

// Replaces each adjusted key's fitted value, comment and provenance in `r`. A key the fit did not
// produce is an InputError at the adjustment's location: an adjustment corrects a fit, it does not
// add a value the measurements never gave.
void apply_adjustments(CalibrationResult& r, const std::vector<Adjustment>& adjustments);

}  // namespace gpucast::calib
