#include "cli/progress_bar.h"

#include <unistd.h>

#include <iostream>

namespace gpucast::cli {

void draw_bar(size_t done, size_t total, const std::string& label) {
  const size_t width = 30;
  const size_t filled = total == 0 ? width : width * done / total;
  std::cerr << "\r  [" << std::string(filled, '#') << std::string(width - filled, '.') << "] " << done << "/" << total
            << " " << label.substr(0, 40) << "\033[K" << std::flush;
}

ProgressBar::ProgressBar(std::string label, size_t total)
    : label_(std::move(label)), total_(total), tty_(isatty(STDERR_FILENO)) {}

void ProgressBar::advance() {
  const size_t done = ++done_;
  if (!tty_) return;
  // Redraw at most every 50 ms: drawing must not cost more than the work it reports.
  std::unique_lock<std::mutex> lock(draw_mutex_, std::try_to_lock);
  if (!lock.owns_lock()) return;
  const auto now = std::chrono::steady_clock::now();
  if (done != total_ && now - last_draw_ < std::chrono::milliseconds(50)) return;
  last_draw_ = now;
  draw_bar(done, total_, label_);
}

void ProgressBar::finish() {
  if (!tty_) return;
  std::lock_guard<std::mutex> lock(draw_mutex_);
  draw_bar(done_.load(), total_, label_);
  std::cerr << "\n";
}

}  // namespace gpucast::cli
