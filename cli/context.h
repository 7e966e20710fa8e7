#pragma once
// What every command needs: where gpucast's data lives, the catalog, and safe output.
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "cli/atomic_output.h"
#include "hardware/catalog.h"

namespace gpucast::cli {

inline constexpr const char* kVersion = "0.1.0";

struct AppContext {
  std::filesystem::path data_dir;  // holds hardware/ and workloads/
  hw::Catalog catalog;
  std::string command_line;        // as typed, for report headers
  // Files this command writes; main() commits them when the command succeeds.
  std::shared_ptr<PendingOutputs> outputs = std::make_shared<PendingOutputs>();

  // GPUCAST_HOME when set, else the directory compiled in (the source tree).
  static AppContext from_environment();
};

// Writes `text` to stdout (path "" or "-"), or stages it for `path` in `outputs` (a temporary
// file renamed into place when the command succeeds), so that a failure never leaves a file.
void emit(PendingOutputs& outputs, const std::string& text, const std::string& path = "");

// "a,b" "c" -> {"a", "b", "c"}: list options that take comma-separated values, repeatably.
[[nodiscard]] std::vector<std::string> split_commas(const std::vector<std::string>& items);

// Output formats every result-printing command accepts.
inline const std::vector<std::string>& format_choices() {
  static const std::vector<std::string> kChoices{"table", "json", "csv", "markdown"};
  return kChoices;
}

}  // namespace gpucast::cli
