#include "cli/system_source.h"

#include <cctype>

#include "hardware/host_catalog.h"

namespace gpucast::cli {

bool is_system_shorthand(const std::string& text) {
  const auto x = text.find_first_of("xX");
  if (x == std::string::npos || x == 0 || x + 1 >= text.size()) return false;
  for (size_t i = 0; i < x; ++i)
    if (!std::isdigit(static_cast<unsigned char>(text[i]))) return false;
  return true;
}

hw::SystemSpec load_system(const AppContext& ctx, const std::string& id, const std::vector<std::string>& sets) {
  const hw::SystemCatalog systems(ctx.catalog);
  // host.KEY assignments are the host's (load_host), not the system's or its GPU's.
  const auto overrides = hw::split_overrides(hw::split_host_overrides(sets).gpu);
  if (is_system_shorthand(id)) return systems.from_shorthand(id, overrides);
  return systems.load(id, overrides);
}

void check_layout_fits(const hw::SystemSpec& system, const wl::Parallelism& layout) {
  const int world = layout.world();
  if (world > system.total_gpus())
    throw InputError(SourceLocation{}, "--tp",
                     "the layout needs " + std::to_string(world) + " GPUs (TP " + std::to_string(layout.tp) + " x PP " +
                         std::to_string(layout.pp) + " x DP " + std::to_string(layout.dp) +
                         "): more GPUs than the system " + system.id + " has (" + std::to_string(system.total_gpus()) +
                         ")");
}

}  // namespace gpucast::cli
