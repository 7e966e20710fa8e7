#include "common/dtype.h"

#include <array>
#include <utility>

namespace gpucast {
namespace {
constexpr std::array<std::pair<DataType, std::string_view>, 9> kNames{{
    {DataType::fp64, "fp64"},
    {DataType::fp32, "fp32"},
    {DataType::tf32, "tf32"},
    {DataType::fp16, "fp16"},
    {DataType::bf16, "bf16"},
    {DataType::fp8, "fp8"},
    {DataType::int8, "int8"},
    {DataType::fp6, "fp6"},
    {DataType::fp4, "fp4"},
}};
}  // namespace

double bytes_per_element(DataType t) {
  switch (t) {
    case DataType::fp64: return 8;
    case DataType::fp32:
    case DataType::tf32: return 4;
    case DataType::fp16:
    case DataType::bf16: return 2;
    case DataType::fp8:
    case DataType::int8: return 1;
    case DataType::fp6: return 0.75;
    case DataType::fp4: return 0.5;
  }
  return 4;
}

std::string_view to_string(DataType t) {
  for (const auto& [type, name] : kNames)
    if (type == t) return name;
  return "?";
}

std::optional<DataType> parse_dtype(std::string_view text) {
  for (const auto& [type, name] : kNames)
    if (name == text) return type;
  return std::nullopt;
}

std::string dtype_choices() {
  std::string out;
  for (const auto& [type, name] : kNames) {
    if (!out.empty()) out += ", ";
    out += name;
  }
  return out;
}

const std::vector<DataType>& tensor_dtypes() {
  static const std::vector<DataType> kTypes{DataType::tf32, DataType::fp16, DataType::bf16, DataType::fp8,
                                            DataType::int8, DataType::fp6, DataType::fp4};
  return kTypes;
}

}  // namespace gpucast
