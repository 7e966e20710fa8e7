#include "cli/context.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>

#include "common/errors.h"

#ifndef GPUCAST_DATA_DIR
#define GPUCAST_DATA_DIR "."
#endif

namespace gpucast::cli {

AppContext AppContext::from_environment() {
  const char* home = std::getenv("GPUCAST_HOME");
  std::filesystem::path dir = home && *home ? std::filesystem::path(home) : std::filesystem::path(GPUCAST_DATA_DIR);
  if (!std::filesystem::is_directory(dir / "hardware" / "catalog"))
    throw Error("cannot find gpucast's data (hardware/catalog) under '" + dir.string() +
                "'; set GPUCAST_HOME to the gpucast source or install directory");
  return AppContext{dir, hw::Catalog(dir / "hardware"), "", std::make_shared<PendingOutputs>()};
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
