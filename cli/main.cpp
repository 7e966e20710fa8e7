// gpucast command line. Library code throws typed errors; this is the one place that prints them
// and chooses the exit code (0 ok, 1 error in input or model, 2 command-line misuse).
#include <iostream>

#include <CLI/CLI.hpp>

#include "cli/commands.h"
#include "common/errors.h"

int main(int argc, char** argv) {
  CLI::App app{"gpucast: analytical GPU performance simulator"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("gpucast ") + gpucast::cli::kVersion);
  try {
    auto ctx = gpucast::cli::AppContext::from_environment();
    ctx.command_line = "gpucast";
    for (int i = 1; i < argc; ++i) ctx.command_line += std::string(" ") + argv[i];
    gpucast::cli::add_hw_command(app, ctx);
    gpucast::cli::add_predict_command(app, ctx);
    gpucast::cli::add_validate_command(app, ctx);
    gpucast::cli::add_explain_command(app, ctx);
    gpucast::cli::add_bench_command(app, ctx);
    gpucast::cli::add_calibrate_command(app, ctx);
    gpucast::cli::add_compare_command(app, ctx);
    gpucast::cli::add_cost_command(app, ctx);
    gpucast::cli::add_sweep_command(app, ctx);
    gpucast::cli::add_fabric_fit_command(app, ctx);
    try {
      app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
      return app.exit(e);
    }
  } catch (const gpucast::UsageError& e) {
    std::cerr << "gpucast: error: " << e.what() << "\n";
    return 2;
  } catch (const gpucast::InputError& e) {
    std::cerr << e.what() << "\n";
    return 1;
  } catch (const gpucast::Error& e) {
    std::cerr << "gpucast: error: " << e.what() << "\n";
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "gpucast: internal error: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
