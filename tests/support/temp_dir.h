#pragma once
// A scratch directory removed when the test ends, and a hardware tree inside it whose
// architectures/ are the real defaults, so tests write only the GPU files they need.
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "hardware/catalog.h"

namespace gpucast::test {

std::filesystem::path source_dir();

class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  [[nodiscard]] const std::filesystem::path& path() const { return path_; }
  std::filesystem::path write(const std::string& relative, const std::string& text) const;

 private:
  std::filesystem::path path_;
};

// Builds GPU description text from a valid minimal GPU, with keys changed, removed or added.
class GpuFileBuilder {
 public:
  GpuFileBuilder();
  GpuFileBuilder& set(const std::string& path, const std::string& toml_value);  // e.g. set("sm.count", "100")
  GpuFileBuilder& remove(const std::string& path);
  GpuFileBuilder& extends(const std::string& target);
  GpuFileBuilder& raw(const std::string& text);  // appended verbatim at the end
  [[nodiscard]] std::string text() const;

 private:
  std::map<std::string, std::string> values_;  // dotted path -> TOML literal
  std::string extends_;
  std::string raw_;
};

// A hardware tree in a temp dir with the real architecture defaults and the given GPU files.
class HardwareFixture {
 public:
  HardwareFixture();
  std::filesystem::path add_gpu(const std::string& id, const std::string& text) const;
  [[nodiscard]] hw::Catalog catalog() const { return hw::Catalog(dir_.path() / "hardware"); }
  [[nodiscard]] const TempDir& dir() const { return dir_; }

 private:
  TempDir dir_;
};

}  // namespace gpucast::test
