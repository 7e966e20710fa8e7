#include "cli/subprocess.h"

#include "common/limits.h"

#include "cli/progress_bar.h"

#include <unistd.h>

#include <array>
#include <cstdio>
#include <iostream>
#include <regex>
#include <sys/wait.h>

namespace gpucast::cli {

int run_streaming(const std::string& command, const std::function<void(const std::string&)>& on_line) {
  FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  if (!pipe) return 127;
  std::array<char, 4096> buffer{};
  std::string pending;
  while (fgets(buffer.data(), static_cast<int>(buffer.size()), pipe)) {
    pending += buffer.data();
    if (!pending.empty() && pending.back() == '\n') {
      pending.pop_back();
      on_line(pending);
      pending.clear();
    }
  }
  if (!pending.empty()) on_line(pending);
  const int status = pclose(pipe);
  if (status == -1) return 127;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

std::filesystem::path executable_dir() {
  std::error_code ec;
  const auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::filesystem::current_path() : exe.parent_path();
}

Progress::Progress(std::string title) : title_(std::move(title)), tty_(isatty(STDERR_FILENO)) {
  std::cerr << title_ << "\n";
}

void Progress::line(const std::string& text) {
  tail_ += text + "\n";
  if (tail_.size() > 4000) tail_ = tail_.substr(tail_.size() - 4000);
  static const std::regex kStep(R"(^\[[a-z0-9_-]+\] (\d+)/(\d+) (.*)$)");
  std::smatch m;
  if (!std::regex_match(text, m, kStep)) return;
  const auto k_value = parse_int64(m[1].str());
  const auto n_value = parse_int64(m[2].str());
  if (!k_value || !n_value || *k_value < 0 || *n_value > 1000000000 || *k_value > *n_value) return;
  const int k = static_cast<int>(*k_value);
  const int n = std::max(1, static_cast<int>(*n_value));
  if (!tty_) {
    std::cerr << "  " << k << "/" << n << " " << m[3].str() << "\n";
    return;
  }
  draw_bar(size_t(k), size_t(n), m[3].str());
}

void Progress::finish() {
  if (tty_) std::cerr << "\n";
}

std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'') out += "'\\''";
    else out += c;
  }
  return out + "'";
}

}  // namespace gpucast::cli
