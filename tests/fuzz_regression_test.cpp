// Replays the fuzz corpora (seeds from the repository's own files, and every input that once
// crashed a harness) through the fuzz target functions, under whatever compiler built the tests:
// each must return normally. The sanitizer build (build-asan) turns any memory or UB slip into a
// failure here too.
#include <catch2/catch.hpp>

#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "fuzz/targets.h"
#include "support/temp_dir.h"

namespace fs = std::filesystem;

namespace {
using Target = int (*)(const std::uint8_t*, std::size_t);

size_t replay(const std::string& name, Target target) {
  size_t count = 0;
  for (const char* folder : {"corpus", "regressions"}) {
    const fs::path dir = gpucast::test::source_dir() / "fuzz" / folder / name;
    if (!fs::is_directory(dir)) continue;
    std::vector<fs::path> files;
    for (const auto& entry : fs::directory_iterator(dir))
      if (entry.is_regular_file()) files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    for (const auto& file : files) {
      std::ifstream in(file, std::ios::binary);
      const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      INFO(file.string());
      CHECK_NOTHROW(target(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()));
      ++count;
    }
  }
  return count;
}
}  // namespace

SCENARIO("the GPU file corpus replays without a crash") { CHECK(replay("gpu_file", gpucast::fuzz::gpu_file) > 0); }
SCENARIO("the workload file corpus replays without a crash") {
  CHECK(replay("workload_file", gpucast::fuzz::workload_file) > 0);
}
SCENARIO("the model file corpus replays without a crash") {
  CHECK(replay("model_file", gpucast::fuzz::model_file) > 0);
}
SCENARIO("the --set/--vary corpus replays without a crash") {
  CHECK(replay("set_vary", gpucast::fuzz::set_vary) > 0);
}
SCENARIO("the trace importer corpus replays without a crash") {
  CHECK(replay("trace_import", gpucast::fuzz::trace_import) > 0);
}
SCENARIO("the system file corpus replays without a crash") {
  CHECK(replay("system_file", gpucast::fuzz::system_file) > 0);
}
SCENARIO("the host file corpus replays without a crash") {
  CHECK(replay("host_file", gpucast::fuzz::host_file) > 0);
}
