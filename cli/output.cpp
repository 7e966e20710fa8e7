#include "cli/output.h"

#include "hardware/errors.h"

namespace gpucast::cli {

void add_output_options(CLI::App* cmd, OutputOptions& o) {
  cmd->add_option("--format", o.format, "table | json | csv | markdown")->check(CLI::IsMember(format_choices()));
  cmd->add_option("-o,--output", o.output, "write to this file instead of stdout");
  cmd->add_option("--html", o.html, "also write a self-contained HTML report with charts");
}

void write_reports(const AppContext& ctx, const std::vector<reports::Report>& reports, const OutputOptions& o) {
  (void)ctx;
  const std::string text = reports::render_all(reports, reports::parse_format(o.format));
  if (!o.html.empty()) throw UsageError("--html is not available yet");
  emit(text, o.output);
}

}  // namespace gpucast::cli
