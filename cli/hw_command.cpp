// `gpucast hw list` and `gpucast hw show`.
#include <memory>

#include "cli/commands.h"
#include "reports/hardware_report.h"

namespace gpucast::cli {
namespace {

struct HwOptions {
  std::string format = "table";
  std::string gpu;
  std::vector<std::string> sets;
  std::string output;
};

std::string render(const reports::Table& table, const reports::Json& json, const std::string& format) {
  if (format == "json") return json.dump(2) + "\n";
  if (format == "csv") return table.to_csv();
  if (format == "markdown") return table.to_markdown();
  return table.to_text();
}

}  // namespace

void add_hw_command(CLI::App& app, AppContext& ctx) {
  auto* hw = app.add_subcommand("hw", "Hardware descriptions: the GPU catalog");
  hw->require_subcommand(1);
  auto opts = std::make_shared<HwOptions>();

  auto* list = hw->add_subcommand("list", "List the GPU catalog");
  list->add_option("--format", opts->format, "table | json | csv | markdown")
      ->check(CLI::IsMember(format_choices()));
  list->add_option("-o,--output", opts->output, "write to this file instead of stdout");
  list->callback([opts, &ctx] {
    std::vector<hw::GpuSpec> gpus;
    for (const auto& id : ctx.catalog.ids()) gpus.push_back(ctx.catalog.load(id));
    emit(render(reports::hardware_list_table(gpus), reports::hardware_list_json(gpus), opts->format), opts->output);
  });

  auto* show = hw->add_subcommand("show", "Show one GPU's fully resolved description");
  show->add_option("gpu", opts->gpu, "catalog id or path to a .toml file")->required();
  show->add_option("--format", opts->format, "table | json | csv | markdown")
      ->check(CLI::IsMember(format_choices()));
  show->add_option("--set", opts->sets, "override a key for what-if studies: key.path=value (repeatable)");
  show->add_option("-o,--output", opts->output, "write to this file instead of stdout");
  show->callback([opts, &ctx] {
    const auto spec = ctx.catalog.load(opts->gpu, hw::parse_overrides(opts->sets));
    std::string text;
    if (opts->format == "table") text = spec.name + " (" + spec.id + ", " + spec.origin + ")\n";
    text += render(reports::hardware_detail_table(spec), reports::hardware_to_json(spec), opts->format);
    emit(text, opts->output);
  });
}

}  // namespace gpucast::cli
