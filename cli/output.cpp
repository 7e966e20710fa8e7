#include "cli/output.h"

#include <ctime>

#include "reports/html.h"

namespace gpucast::cli {

void add_output_options(CLI::App* cmd, OutputOptions& o, bool with_output) {
  cmd->add_option("--format", o.format, "table | json | csv | markdown")->check(CLI::IsMember(format_choices()));
  if (with_output) cmd->add_option("-o,--output", o.output, "write to this file instead of stdout");
  cmd->add_option("--html", o.html, "also write a self-contained HTML report with charts");
}

namespace {
std::string now_utc() {
  const std::time_t now = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M UTC", std::gmtime(&now));
  return buf;
}
}  // namespace

void write_reports(const AppContext& ctx, const std::vector<reports::Report>& reports, const OutputOptions& o) {
  // Render everything before writing anything, so that a failure leaves no half of the output.
  const std::string text = reports::render_all(reports, reports::parse_format(o.format));
  std::string html;
  if (!o.html.empty()) {
    const auto libs = reports::load_chart_libraries(ctx.data_dir / "reports" / "web" / "node_modules");
    html = reports::render_html(reports, libs, {ctx.command_line, now_utc(), kVersion});
  }
  if (!o.html.empty()) emit(*ctx.outputs, html, o.html);
  emit(*ctx.outputs, text, o.output);
}

}  // namespace gpucast::cli
