#pragma once
// Numeric data types shared by workloads (operand types) and hardware (tensor-core rates per type).
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpucast {

// fp6 and fp4 are the block-scaled microscaling formats (OCP MXFP6/MXFP4, NVIDIA NVFP4): an element
// takes 6 or 4 bits, a shared scale per 16 or 32 elements is not counted.
enum class DataType { fp64, fp32, tf32, fp16, bf16, fp8, int8, fp6, fp4 };

// Storage size of one element in bytes (tf32 is stored as fp32; fp6 0.75, fp4 0.5: not whole bytes).
[[nodiscard]] double bytes_per_element(DataType t);
[[nodiscard]] std::string_view to_string(DataType t);
[[nodiscard]] std::optional<DataType> parse_dtype(std::string_view text);
// The spellings accepted in files, for error messages: "fp32, tf32, ...".
[[nodiscard]] std::string dtype_choices();
// Data types that have a dense tensor-core rate key (compute.tensor_tflops.<type>).
[[nodiscard]] const std::vector<DataType>& tensor_dtypes();

}  // namespace gpucast
