// libFuzzer entry point for gpucast::fuzz::system_file (see fuzz/targets.h and docs/robustness.md).
#include "fuzz/targets.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return gpucast::fuzz::system_file(data, size);
}
