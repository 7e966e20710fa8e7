#pragma once
// Runs the built gpucast executable, as a user would, and captures what it printed.
#include <string>
#include <vector>

namespace gpucast::test {

struct CliResult {
  int exit_code = -1;
  std::string out;  // stdout
  std::string err;  // stderr
};

// Runs `gpucast args...` in the source tree, with GPUCAST_HOME there.
[[nodiscard]] CliResult run_gpucast(const std::vector<std::string>& args);

// Splits CSV text into rows of fields (quoted fields with commas, quotes and newlines allowed).
[[nodiscard]] std::vector<std::vector<std::string>> parse_csv(const std::string& text);

}  // namespace gpucast::test
