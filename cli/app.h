#pragma once
// The whole command line as a library: the gpucast binary's main() and the Python module run the
// same commands through it.
#include <string>
#include <vector>

namespace gpucast::cli {

// The gpucast binary: registers every command on a fresh app and runs `args` (without the program
// name); CLI misuse prints CLI11's message and returns its exit code; the files the command wrote
// appear only when it returns 0. gpucast errors propagate to main(), which prints them.
[[nodiscard]] int run_main(const std::vector<std::string>& args, const std::string& program = "gpucast");

// The Python module: registers every command on a fresh app and runs `args` (without the program name). Commands
// print through emit(); gpucast errors propagate to the caller; CLI misuse becomes UsageError.
// `--help` and `--version` print and return normally.
void run_command_line(const std::vector<std::string>& args, const std::string& program = "gpucast");

// The same, with stdout captured and returned (the Python module reads --format json from it).
[[nodiscard]] std::string run_captured(const std::vector<std::string>& args, const std::string& program);

}  // namespace gpucast::cli
