// `gpucast hw list` and `gpucast hw show`.
#include <algorithm>
#include <cctype>
#include <memory>

#include "cli/commands.h"
#include "cli/output.h"
#include "common/errors.h"
#include "common/suggest.h"
#include "reports/hardware_report.h"

namespace gpucast::cli {
namespace {
struct HwOptions {
  std::string gpu;
  std::vector<std::string> sets;
  std::string vendor;
  std::string architecture;
  OutputOptions out;
};
}  // namespace

void add_hw_command(CLI::App& app, AppContext& ctx) {
  auto* hw = app.add_subcommand("hw", "Hardware descriptions: the GPU catalog");
  hw->require_subcommand(1);
  auto opts = std::make_shared<HwOptions>();

  auto* list = hw->add_subcommand("list", "List the GPU catalog");
  list->add_option("--vendor", opts->vendor, "only this vendor's GPUs (nvidia, amd; case-insensitive)");
  list->add_option("--architecture", opts->architecture, "only this architecture's GPUs (e.g. hopper, cdna3)");
  add_output_options(list, opts->out);
  list->callback([opts, &ctx] {
    auto lower = [](std::string s) {
      std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
      return s;
    };
    std::vector<hw::GpuSpec> gpus;
    std::vector<std::string> vendors;
    std::vector<std::string> architectures;
    for (const auto& id : ctx.catalog.ids()) {
      auto gpu = ctx.catalog.load(id);
      vendors.push_back(lower(gpu.vendor));
      architectures.push_back(gpu.architecture);
      if (!opts->vendor.empty() && lower(gpu.vendor) != lower(opts->vendor)) continue;
      if (!opts->architecture.empty() && gpu.architecture != lower(opts->architecture)) continue;
      gpus.push_back(std::move(gpu));
    }
    auto check = [](const std::string& flag, const std::string& value, std::vector<std::string> known) {
      std::sort(known.begin(), known.end());
      known.erase(std::unique(known.begin(), known.end()), known.end());
      std::string all;
      for (const auto& k : known) all += (all.empty() ? "" : ", ") + k;
      throw UsageError(flag + " " + value + ": no GPU in the catalog" + did_you_mean(value, known) + "; one of " + all);
    };
    if (gpus.empty() && !opts->vendor.empty()) check("--vendor", opts->vendor, vendors);
    if (gpus.empty() && !opts->architecture.empty()) check("--architecture", opts->architecture, architectures);
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
