// libFuzzer entry point for gpucast::fuzz::set_vary (see fuzz/targets.h and docs/robustness.md).
#include "fuzz/targets.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return gpucast::fuzz::set_vary(data, size);
}
