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
  // The leading digits, without std::stoi's exceptions (files are checked for MAJOR.MINOR when read).
  int major = 0;
  for (char c : compute_capability) {
    if (c < '0' || c > '9' || major > 100) break;
    major = major * 10 + (c - '0');
  }
  return major;
}

double GpuSpec::tensor_efficiency(DataType t) const {
  auto it = efficiency.tensor.find(t);
  if (it == efficiency.tensor.end())
    throw UnsupportedError("GPU '" + id + "' has no efficiency.tensor." + std::string(to_string(t)) + " value");
  return it->second;
}

}  // namespace gpucast::hw
