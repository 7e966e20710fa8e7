#pragma once
// The output flags every result-printing command shares (--format, -o, --html) and the one place
// that renders a command's reports and writes them.
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "cli/context.h"
#include "reports/report.h"

namespace gpucast::cli {

struct OutputOptions {
  std::string format = "table";
  std::string output;  // file instead of stdout
  std::string html;    // also write the HTML report here
};

void add_output_options(CLI::App* cmd, OutputOptions& o);

// Renders in the chosen format to stdout or --output, and the HTML report to --html. Every file is
// written whole or not at all.
void write_reports(const AppContext& ctx, const std::vector<reports::Report>& reports, const OutputOptions& o);
inline void write_report(const AppContext& ctx, const reports::Report& r, const OutputOptions& o) {
  write_reports(ctx, {r}, o);
}

}  // namespace gpucast::cli
