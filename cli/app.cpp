#include "cli/app.h"

#include <iostream>
#include <sstream>

#include <CLI/CLI.hpp>

#include "cli/commands.h"
#include "common/errors.h"

namespace gpucast::cli {

void run_command_line(const std::vector<std::string>& args, const std::string& program) {
  CLI::App app{"gpucast: analytical GPU performance simulator"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("gpucast ") + kVersion);
  auto ctx = AppContext::from_environment();
  ctx.command_line = program;
  for (const auto& a : args) ctx.command_line += " " + a;
  add_hw_command(app, ctx);
  add_predict_command(app, ctx);
  add_validate_command(app, ctx);
  add_explain_command(app, ctx);
  add_bench_command(app, ctx);
  add_calibrate_command(app, ctx);
  add_compare_command(app, ctx);
  add_cost_command(app, ctx);
  add_sweep_command(app, ctx);
  std::vector<std::string> reversed(args.rbegin(), args.rend());  // CLI11 takes them last first
  try {
    app.parse(reversed);
  } catch (const CLI::Success& e) {
    app.exit(e);
  } catch (const CLI::ParseError& e) {
    throw UsageError(e.what());
  }
}

std::string run_captured(const std::vector<std::string>& args, const std::string& program) {
  std::ostringstream out;
  std::streambuf* saved = std::cout.rdbuf(out.rdbuf());
  try {
    run_command_line(args, program);
  } catch (...) {
    std::cout.rdbuf(saved);
    throw;
  }
  std::cout.rdbuf(saved);
  return out.str();
}

}  // namespace gpucast::cli
