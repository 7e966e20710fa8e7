#pragma once
// What every command needs: where gpucast's data lives, the catalog, and safe output.
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "cli/atomic_output.h"
#include "hardware/catalog.h"
#include "hardware/host_catalog.h"

namespace gpucast::cli {

inline constexpr const char* kVersion = "0.1.0";

struct AppContext {
  std::filesystem::path data_dir;  // holds hardware/ and workloads/
  hw::Catalog catalog;
  hw::HostCatalog hosts;           // hardware/catalog/hosts
  std::string command_line;        // as typed, for report headers
  // Files this command writes; main() commits them when the command succeeds.
  std::shared_ptr<PendingOutputs> outputs = std::make_shared<PendingOutputs>();

  // Data from find_data_dir().
  static AppContext from_environment();
};

// Where gpucast's data (hardware/, workloads/, reports/web/node_modules) lives: GPUCAST_HOME when
// set; else <prefix>/share/gpucast above the installed binary or Python module; else the source
// tree compiled in (a build that was not installed).
[[nodiscard]] std::filesystem::path find_data_dir();

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
