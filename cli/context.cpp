#include "cli/context.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>

#include <dlfcn.h>

#include "common/errors.h"

#ifndef GPUCAST_DATA_DIR
#define GPUCAST_DATA_DIR "."
#endif

namespace gpucast::cli {

namespace {
bool has_catalog(const std::filesystem::path& dir) {
  std::error_code ec;
  return std::filesystem::is_directory(dir / "hardware" / "catalog", ec);
}

// The file this code was loaded from: the gpucast binary, or the Python module's shared library.
std::filesystem::path loaded_from() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&has_catalog), &info) && info.dli_fname && *info.dli_fname) {
    std::error_code ec;
    auto p = std::filesystem::canonical(info.dli_fname, ec);
    if (!ec) return p;
  }
  std::error_code ec;
  auto exe = std::filesystem::canonical("/proc/self/exe", ec);
  return ec ? std::filesystem::path() : exe;
}
}  // namespace

std::filesystem::path find_data_dir() {
  if (const char* home = std::getenv("GPUCAST_HOME"); home && *home) {
    if (!has_catalog(home))
      throw Error(std::string("GPUCAST_HOME is '") + home +
                  "' but it holds no hardware/catalog: point it at a gpucast "
                  "source tree or install prefix's share/gpucast, or unset it");
    return home;
  }
  // Installed: <prefix>/bin/gpucast or <prefix>/lib/python3/dist-packages/gpucast/_gpucast.so find
  // <prefix>/share/gpucast; no environment variable needed.
  const auto self = loaded_from();
  for (auto dir = self.parent_path(); !dir.empty(); dir = dir.parent_path()) {
    if (has_catalog(dir / "share" / "gpucast")) return dir / "share" / "gpucast";
    if (dir == dir.root_path()) break;
  }
  // Built, not installed: the source tree compiled in.
  if (has_catalog(GPUCAST_DATA_DIR)) return GPUCAST_DATA_DIR;
  throw Error("cannot find gpucast's data (hardware/catalog): looked in share/gpucast above '" +
              self.string() + "' and in '" + std::string(GPUCAST_DATA_DIR) +
              "'; set GPUCAST_HOME to the gpucast source tree");
}

AppContext AppContext::from_environment() {
  const auto dir = find_data_dir();
  return AppContext{dir, hw::Catalog(dir / "hardware"), hw::HostCatalog(dir / "hardware" / "catalog" / "hosts"), "",
                    std::make_shared<PendingOutputs>()};
}

void emit(PendingOutputs& outputs, const std::string& text, const std::string& path) {
  if (path.empty() || path == "-") {
    std::cout << text;
    if (!text.empty() && text.back() != '\n') std::cout << '\n';
    std::cout.flush();
    return;
  }
  outputs.write(path, text);
}

std::vector<std::string> split_commas(const std::vector<std::string>& items) {
  std::vector<std::string> out;
  for (const auto& item : items) {
    std::stringstream ss(item);
    for (std::string part; std::getline(ss, part, ',');)
      if (!part.empty()) out.push_back(part);
  }
  return out;
}

}  // namespace gpucast::cli
