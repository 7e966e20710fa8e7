#include "hardware/gpu_spec.h"

#include <cctype>

#include "common/errors.h"

namespace gpucast::hw {

double GpuSpec::tensor_tflops(DataType t) const {
  auto it = compute.tensor_tflops.find(t);
  if (it == compute.tensor_tflops.end())
    throw UnsupportedError("GPU '" + id + "' (" + name + ") has no " + std::string(to_string(t)) +
                           " tensor-core rate (compute.tensor_tflops." + std::string(to_string(t)) +
                           " is absent): it cannot run " + std::string(to_string(t)) + " matrix math");
  return it->second;
}

int GpuSpec::cc_major() const {
  if (compute_capability.empty() || !std::isdigit(static_cast<unsigned char>(compute_capability[0]))) return 0;
  return std::stoi(compute_capability);
}

double GpuSpec::tensor_efficiency(DataType t) const {
  auto it = efficiency.tensor.find(t);
  if (it == efficiency.tensor.end())
    throw UnsupportedError("GPU '" + id + "' has no efficiency.tensor." + std::string(to_string(t)) + " value");
  return it->second;
}

}  // namespace gpucast::hw
