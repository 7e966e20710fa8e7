#pragma once
// The self-contained HTML report: every section, table and chart of one or more reports in one
// file that opens offline. Charts are Vega-Lite specifications drawn by vega-embed, whose code is
// inlined from the pinned npm packages (reports/web/package-lock.json), so nothing is fetched.
#include <filesystem>
#include <string>
#include <vector>

#include "reports/report.h"

namespace gpucast::reports {

struct ChartLibraries {
  std::string vega, vega_lite, vega_embed;  // minified UMD builds
  std::string versions;                     // "Vega 6.4.0, Vega-Lite 6.5.0, vega-embed 7.3.0"
};

// Reads the libraries from `node_modules` (reports/web/node_modules); throws Error saying how to
// install them when they are missing.
[[nodiscard]] ChartLibraries load_chart_libraries(const std::filesystem::path& node_modules);

struct HtmlContext {
  std::string command;    // the command line that produced the report
  std::string generated;  // date and time
  std::string version;    // gpucast version
};

[[nodiscard]] std::string render_html(const std::vector<Report>& reports, const ChartLibraries& libs,
                                      const HtmlContext& ctx);

}  // namespace gpucast::reports
