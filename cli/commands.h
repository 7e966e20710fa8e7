#pragma once
// Each command registers itself on the CLI11 app; its callback may throw gpucast errors, which
// main() prints. Commands write their results through cli::emit.
#include <CLI/CLI.hpp>

#include "cli/context.h"

namespace gpucast::cli {

void add_hw_command(CLI::App& app, AppContext& ctx);
void add_validate_command(CLI::App& app, AppContext& ctx);
void add_explain_command(CLI::App& app, AppContext& ctx);
void add_predict_command(CLI::App& app, AppContext& ctx);
void add_bench_command(CLI::App& app, AppContext& ctx);
void add_calibrate_command(CLI::App& app, AppContext& ctx);
void add_cost_command(CLI::App& app, AppContext& ctx);
void add_compare_command(CLI::App& app, AppContext& ctx);
void add_sweep_command(CLI::App& app, AppContext& ctx);
void add_fabric_fit_command(CLI::App& app, AppContext& ctx);

}  // namespace gpucast::cli
