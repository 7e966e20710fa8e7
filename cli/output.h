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

// `with_output` false: the command's -o already names something else (calibrate's profile), and
// results go to stdout.
void add_output_options(CLI::App* cmd, OutputOptions& o, bool with_output = true);

// Renders in the chosen format to stdout or --output, and the HTML report to --html. Every file is
// written whole or not at all.
void write_reports(const AppContext& ctx, const std::vector<reports::Report>& reports, const OutputOptions& o);
inline void write_report(const AppContext& ctx, const reports::Report& r, const OutputOptions& o) {
  write_reports(ctx, {r}, o);
}

}  // namespace gpucast::cli
