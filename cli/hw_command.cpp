// `gpucast hw list` and `gpucast hw show`.
#include <memory>

#include "cli/commands.h"
#include "cli/output.h"
#include "reports/hardware_report.h"

namespace gpucast::cli {
namespace {
struct HwOptions {
  std::string gpu;
  std::vector<std::string> sets;
  OutputOptions out;
};
}  // namespace

void add_hw_command(CLI::App& app, AppContext& ctx) {
  auto* hw = app.add_subcommand("hw", "Hardware descriptions: the GPU catalog");
  hw->require_subcommand(1);
  auto opts = std::make_shared<HwOptions>();

  auto* list = hw->add_subcommand("list", "List the GPU catalog");
  add_output_options(list, opts->out);
  list->callback([opts, &ctx] {
    std::vector<hw::GpuSpec> gpus;
    for (const auto& id : ctx.catalog.ids()) gpus.push_back(ctx.catalog.load(id));
    write_report(ctx, reports::hardware_list_report(gpus), opts->out);
  });

  auto* show = hw->add_subcommand("show", "Show one GPU's fully resolved description");
  show->add_option("gpu", opts->gpu, "catalog id or path to a .toml file")->required();
  show->add_option("--set", opts->sets, "override a key for what-if studies: key.path=value (repeatable)");
  add_output_options(show, opts->out);
  show->callback([opts, &ctx] {
    const auto spec = ctx.catalog.load(opts->gpu, hw::parse_overrides(opts->sets));
    write_report(ctx, reports::hardware_detail_report(spec), opts->out);
  });
}

}  // namespace gpucast::cli
