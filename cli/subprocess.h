#pragma once
// Running the measurement programs (CUDA microbenchmarks, the PyTorch suite) and following their
// progress lines.
#include <filesystem>
#include <functional>
#include <string>

namespace gpucast::cli {

// Runs `command` through the shell with stderr merged into stdout, calling `on_line` per line.
// Returns the exit status (non-zero also when the program could not be started).
int run_streaming(const std::string& command, const std::function<void(const std::string&)>& on_line);

// The directory of the running gpucast executable.
[[nodiscard]] std::filesystem::path executable_dir();

// Draws "[#####.....] 4/10 label" on a terminal (stderr), or prints the label on its own line.
class Progress {
 public:
  explicit Progress(std::string title);
  // Parses "[tag] k/N label" lines; other lines are kept for the error message.
  void line(const std::string& text);
  void finish();
  [[nodiscard]] const std::string& tail() const { return tail_; }

 private:
  std::string title_;
  std::string tail_;  // last lines, for errors
  bool tty_;
};

[[nodiscard]] std::string shell_quote(const std::string& s);

}  // namespace gpucast::cli
