#pragma once
// Every file gpucast writes goes through here: the text goes to a temporary file in the target's
// folder, and the temporary is renamed onto the target only when the whole command has succeeded.
// A failing run (bad input found late, a full disk, an exception) leaves no file, whole or half.
#include <filesystem>
#include <string>
#include <vector>

namespace gpucast::cli {

// Writes `text` (plus a final newline when it lacks one) to a new temporary file next to `path`
// and returns the temporary's path. Throws Error naming `path` when it cannot.
[[nodiscard]] std::filesystem::path write_temporary(const std::filesystem::path& path, const std::string& text);

// One file written whole or not at all: a temporary renamed into place. A target that exists and
// is not a regular file (/dev/null, /dev/stdout, a FIFO) is written directly, never replaced; a
// symbolic link is followed, so the file it points to is the one replaced.
void write_file_atomically(const std::filesystem::path& path, const std::string& text);

// The files one command writes, made visible together by commit(); any not committed when this
// object dies (the command failed) are removed.
class PendingOutputs {
 public:
  PendingOutputs() = default;
  PendingOutputs(const PendingOutputs&) = delete;
  PendingOutputs& operator=(const PendingOutputs&) = delete;
  ~PendingOutputs();

  // Writes the temporary now (so a full disk fails the command) and remembers where it goes;
  // returns the temporary's path (readable until commit), or `path` itself for special files.
  std::filesystem::path write(const std::filesystem::path& path, const std::string& text);
  // Renames every temporary onto its target, in the order written.
  void commit();
  // Removes every temporary not yet committed.
  void discard() noexcept;

 private:
  struct Entry {
    std::filesystem::path temporary;  // empty: a special file, written directly at commit
    std::filesystem::path target;
    std::string text;                 // for special files only
  };
  std::vector<Entry> pending_;
};

}  // namespace gpucast::cli
