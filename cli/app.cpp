#include "cli/app.h"

#include <cstdlib>
#include <iostream>
#include <sstream>

#include <CLI/CLI.hpp>

#include "cli/commands.h"
#include "common/errors.h"

namespace gpucast::cli {

namespace {
// Every command on one app, and the options every command shares.
void register_commands(CLI::App& app, AppContext& ctx) {
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("gpucast ") + kVersion);
  // Input files larger than this are refused (default 64 MB): sets GPUCAST_MAX_INPUT_MB for the
  // readers (common/limits.h), before any file is read.
  app.add_option_function<long>(
         "--max-input-mb", [](long mb) { ::setenv("GPUCAST_MAX_INPUT_MB", std::to_string(mb).c_str(), 1); },
         "largest input file to read, in MB (default 64)")
      ->check(CLI::Range(1L, 1L << 20));
  add_hw_command(app, ctx);
  add_predict_command(app, ctx);
  add_validate_command(app, ctx);
  add_explain_command(app, ctx);
  add_bench_command(app, ctx);
  add_calibrate_command(app, ctx);
  add_compare_command(app, ctx);
  add_cost_command(app, ctx);
  add_sweep_command(app, ctx);
  add_fabric_fit_command(app, ctx);
}

AppContext context_for(const std::vector<std::string>& args, const std::string& program) {
  auto ctx = AppContext::from_environment();
  ctx.command_line = program;
  for (const auto& a : args) ctx.command_line += " " + a;
  return ctx;
}
}  // namespace

int run_main(const std::vector<std::string>& args, const std::string& program) {
  CLI::App app{"gpucast: analytical GPU performance simulator"};
  auto ctx = context_for(args, program);
  register_commands(app, ctx);
  std::vector<std::string> reversed(args.rbegin(), args.rend());  // CLI11 takes them last first
  try {
    app.parse(reversed);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);  // CLI11's own message and exit code (0 for --help)
  }
  ctx.outputs->commit();  // only now do the command's files appear
  return 0;
}

void run_command_line(const std::vector<std::string>& args, const std::string& program) {
  CLI::App app{"gpucast: analytical GPU performance simulator"};
  auto ctx = context_for(args, program);
  register_commands(app, ctx);
  std::vector<std::string> reversed(args.rbegin(), args.rend());
  try {
    app.parse(reversed);
  } catch (const CLI::Success& e) {
    app.exit(e);
    return;
  } catch (const CLI::ParseError& e) {
    throw UsageError(e.what());
  }
  ctx.outputs->commit();
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
