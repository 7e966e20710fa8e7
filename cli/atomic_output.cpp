#include "cli/atomic_output.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "common/errors.h"

namespace gpucast::cli {
namespace fs = std::filesystem;

namespace {
[[noreturn]] void cannot_write(const fs::path& path, const std::string& why) {
  throw Error("cannot write '" + path.string() + "': " + why);
}

bool write_all(int fd, const char* data, size_t size) {
  while (size > 0) {
    const ssize_t n = ::write(fd, data, size);
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    data += n;
    size -= static_cast<size_t>(n);
  }
  return true;
}
// True when `path` exists and is a device, FIFO or socket: such targets are written in place.
bool is_special(const fs::path& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode);
}

// Symbolic links are followed so that the rename replaces the file, not the link.
fs::path resolve(const fs::path& path) {
  std::error_code ec;
  if (!fs::is_symlink(fs::symlink_status(path, ec))) return path;
  const fs::path target = fs::weakly_canonical(path, ec);
  return ec ? path : target;
}

void write_in_place(const fs::path& path, const std::string& text) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) cannot_write(path, std::strerror(errno));
  const bool newline = !text.empty() && text.back() != '\n';
  const bool ok = write_all(fd, text.data(), text.size()) && (!newline || write_all(fd, "\n", 1));
  const int saved = errno;
  ::close(fd);
  if (!ok) cannot_write(path, std::strerror(saved));
}
}  // namespace

fs::path write_temporary(const fs::path& path, const std::string& text) {
  if (path.empty() || path.filename().empty()) cannot_write(path, "not a file name");
  std::error_code ec;
  if (fs::is_directory(path, ec)) cannot_write(path, "is a directory");
  const fs::path folder = path.has_parent_path() ? path.parent_path() : fs::path(".");
  // Hidden, unique, in the same folder so that the rename is atomic (same file system).
  std::string pattern = (folder / ("." + path.filename().string() + ".gpucast-XXXXXX")).string();
  std::vector<char> name(pattern.begin(), pattern.end());
  name.push_back('\0');
  const int fd = ::mkstemp(name.data());
  if (fd < 0) cannot_write(path, std::strerror(errno));
  const fs::path temporary(name.data());
  const bool newline = !text.empty() && text.back() != '\n';
  const bool ok = write_all(fd, text.data(), text.size()) && (!newline || write_all(fd, "\n", 1)) &&
                  ::fchmod(fd, 0644) == 0;
  const int saved = errno;
  const bool closed = ::close(fd) == 0;
  if (!ok || !closed) {
    ::unlink(temporary.c_str());
    cannot_write(path, std::strerror(ok ? errno : saved));
  }
  return temporary;
}

void write_file_atomically(const fs::path& requested, const std::string& text) {
  if (is_special(requested)) return write_in_place(requested, text);
  const fs::path path = resolve(requested);
  const fs::path temporary = write_temporary(path, text);
  std::error_code ec;
  fs::rename(temporary, path, ec);
  if (ec) {
    ::unlink(temporary.c_str());
    cannot_write(path, ec.message());
  }
}

PendingOutputs::~PendingOutputs() { discard(); }

fs::path PendingOutputs::write(const fs::path& requested, const std::string& text) {
  if (is_special(requested)) {
    pending_.push_back({{}, requested, text});
    return requested;
  }
  const fs::path path = resolve(requested);
  pending_.push_back({write_temporary(path, text), path, {}});
  return pending_.back().temporary;
}

void PendingOutputs::commit() {
  while (!pending_.empty()) {
    const Entry entry = pending_.front();
    if (entry.temporary.empty()) {
      write_in_place(entry.target, entry.text);
    } else {
      std::error_code ec;
      fs::rename(entry.temporary, entry.target, ec);
      if (ec) cannot_write(entry.target, ec.message());  // the rest are discarded with this object
    }
    pending_.erase(pending_.begin());
  }
}

void PendingOutputs::discard() noexcept {
  for (const auto& entry : pending_)
    if (!entry.temporary.empty()) ::unlink(entry.temporary.c_str());
  pending_.clear();
}

}  // namespace gpucast::cli
