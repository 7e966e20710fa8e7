#pragma once
// A progress bar on stderr for work counted in steps: "[#####.....] 412/1000 label". Drawn only on
// a terminal; elsewhere it prints nothing, so redirected output stays clean. Safe to advance from
// several threads.
#include <atomic>
#include <chrono>
#include <mutex>
#include <string>

namespace gpucast::cli {

// Draws one bar line on a terminal (carriage return, no newline).
void draw_bar(size_t done, size_t total, const std::string& label);

class ProgressBar {
 public:
  ProgressBar(std::string label, size_t total);
  void advance();
  void finish();

 private:
  std::string label_;
  size_t total_;
  std::atomic<size_t> done_{0};
  std::mutex draw_mutex_;
  std::chrono::steady_clock::time_point last_draw_;
  bool tty_;
};

}  // namespace gpucast::cli
