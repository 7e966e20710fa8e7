// libFuzzer entry point for gpucast::fuzz::model_file (see fuzz/targets.h and docs/robustness.md).
#include "fuzz/targets.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return gpucast::fuzz::model_file(data, size);
}
