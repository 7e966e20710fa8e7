#pragma once
// Per-op parameter schema for workload files, gathered from the op families (workloads/ops/):
// names, kinds, defaults, ranges. Files, generators and `--dump-workload` all go through build_op /
// op_params so the format has one definition.
#include <string>
#include <string_view>
#include <vector>

#include "workloads/op.h"
#include "workloads/op_schema.h"

namespace gpucast::wl {

// Every op name a workload file may use, from every family in the Op variant.
[[nodiscard]] const std::vector<OpDef>& op_defs();
[[nodiscard]] const OpDef* find_op_def(std::string_view op);
[[nodiscard]] std::vector<std::string> op_names();

// Builds an op from checked parameters; range errors name the parameter and its location.
// `kernel` names the kernel in messages; `where` locates the kernel when a parameter is missing.
[[nodiscard]] Op build_op(std::string_view op, const ParamMap& params, const std::string& kernel,
                          const SourceLocation& where);

// Gives each parameter its schema's kind where a loosely typed source (CSV, JSON) stored it as the
// other number kind: integers become numbers, integral numbers become integers. A non-integral
// number for an integer parameter is an InputError at the parameter's location.
void coerce_to_schema(ParamMap& params, const OpDef& def);

// "[1, 2147483647]" for numeric parameters, "" otherwise (docs and messages).
[[nodiscard]] std::string param_range_text(const ParamDef& def);

// The op's parameters as they would be written in a workload file (defaults omitted).
[[nodiscard]] ParamList op_params(const Op& op);

}  // namespace gpucast::wl
