#pragma once
// A measured case's `variant`: how PyTorch was called when the op's parameters alone do not say.
// The validation sets (calibration/validation/suite.py) write "layout=XY" for GEMMs, X/Y = t when
// A/B is stored transposed (n otherwise); it maps onto the gemm op's transpose_a/transpose_b.
// Other variants (or other ops) leave the parameters as they are.
#include <string>

#include "common/errors.h"
#include "workloads/op_params.h"

namespace gpucast::calib {

// Sets transpose_a/transpose_b in `params` from a gemm case's "layout=XY" variant. Throws InputError
// (key "variant") for a layout that is not two of n/t, or one that contradicts a transpose_a /
// transpose_b already among the parameters.
void apply_case_variant(const std::string& op, const std::string& variant, wl::ParamMap& params,
                        const SourceLocation& where);

}  // namespace gpucast::calib
