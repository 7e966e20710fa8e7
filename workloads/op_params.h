#pragma once
// Per-op parameter schema for workload files: names, kinds, defaults. Files, generators and
// `--dump-workload` all go through build_op / op_params so the format has one definition.
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "common/errors.h"
#include "workloads/op.h"

namespace gpucast::wl {

enum class ParamKind { integer, number, boolean, dtype, choice, text };

struct ParamDef {
  std::string_view name;
  ParamKind kind;
  bool required;
  std::string_view default_text;  // shown in docs; "" when required or derived ("= heads")
  std::vector<std::string_view> choices;
  std::string_view description;
  // Accepted range (inclusive); numbers must also be finite. 0 for max means "the kind's default":
  // kMaxDim for integers, kMaxNumber for numbers.
  double min = 1;
  double max = 0;
};

// The largest dimension of any op, and the most elements one tensor of an op may hold: sizes
// stay exact in doubles and every product the models form (tiles x batch, bytes) fits in 64 bits.
constexpr std::int64_t kMaxDim = (std::int64_t{1} << 31) - 1;
constexpr double kMaxElements = 281474976710656.0;  // 2^48
constexpr double kMaxNumber = 1e24;
// Stream ids a workload may use.
constexpr std::int64_t kMaxStream = 1023;

struct OpDef {
  std::string_view op;
  std::vector<ParamDef> params;
  std::string_view description;
};

[[nodiscard]] const std::vector<OpDef>& op_defs();
[[nodiscard]] const OpDef* find_op_def(std::string_view op);
[[nodiscard]] std::vector<std::string> op_names();

using ParamValue = std::variant<std::int64_t, double, bool, std::string>;
struct LocatedParam {
  ParamValue value;
  SourceLocation where;
};
using ParamMap = std::map<std::string, LocatedParam>;

// Builds an op from checked parameters; range errors name the parameter and its location.
// `kernel` names the kernel in messages; `where` locates the kernel when a parameter is missing.
[[nodiscard]] Op build_op(std::string_view op, const ParamMap& params, const std::string& kernel,
                          const SourceLocation& where);

// "[1, 2147483647]" for numeric parameters, "" otherwise (docs and messages).
[[nodiscard]] std::string param_range_text(const ParamDef& def);

// The op's parameters as they would be written in a workload file (defaults omitted).
[[nodiscard]] std::vector<std::pair<std::string, ParamValue>> op_params(const Op& op);

}  // namespace gpucast::wl
