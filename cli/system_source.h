#pragma once
// Where a command's multi-GPU system comes from: --gpus NxGPU (one node of N catalog GPUs) or
// --system FILE_OR_ID, with --set keys routed to the system or its GPU.
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "cli/context.h"
#include "hardware/system_catalog.h"
#include "workloads/generate.h"

namespace gpucast::cli {

// "8xh100-sxm" (a count, 'x', a catalog id): a system shorthand, as opposed to a plain GPU id.
[[nodiscard]] bool is_system_shorthand(const std::string& text);

// A system by id or file, or a shorthand; `sets` are the command's --set assignments.
[[nodiscard]] hw::SystemSpec load_system(const AppContext& ctx, const std::string& id_or_shorthand,
                                         const std::vector<std::string>& sets);

// Throws InputError when the layout needs more GPUs than the system has.
void check_layout_fits(const hw::SystemSpec& system, const wl::Parallelism& layout);

}  // namespace gpucast::cli
