// gpucast command line. Library code throws typed errors; this is the one place that prints them
// and chooses the exit code (0 ok, 1 error in input or model, 2 command-line misuse, 3 out of
// memory or an internal error). Nothing escapes as an abort, and the files a command writes appear
// only when it succeeds.
#include <cstdlib>
#include <iostream>
#include <new>

#include <CLI/CLI.hpp>

#include "cli/commands.h"
#include "common/errors.h"
#include "common/limits.h"

namespace {

int run(int argc, char** argv) {
  CLI::App app{"gpucast: analytical GPU performance simulator"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("gpucast ") + gpucast::cli::kVersion);
  // Input files larger than this are refused (default 64 MB); sets GPUCAST_MAX_INPUT_MB for the
  // readers, before any file is read.
  app.add_option_function<long>(
         "--max-input-mb",
         [](long mb) { ::setenv("GPUCAST_MAX_INPUT_MB", std::to_string(mb).c_str(), 1); },
         "largest input file to read, in MB (default 64)")
      ->check(CLI::Range(1L, 1L << 20));
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
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  ctx.outputs->commit();  // only now do the command's files appear
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const gpucast::UsageError& e) {
    std::cerr << "gpucast: error: " << e.what() << "\n";
    return 2;
  } catch (const gpucast::InputError& e) {
    std::cerr << e.what() << "\n";
    return 1;
  } catch (const gpucast::Error& e) {
    std::cerr << "gpucast: error: " << e.what() << "\n";
    return 1;
  } catch (const std::bad_alloc&) {
    std::cerr << "gpucast: error: out of memory (the request is too large for this machine)\n";
    return 3;
  } catch (const std::out_of_range& e) {
    std::cerr << "gpucast: internal error: a value out of range (" << e.what() << "); please report it\n";
    return 3;
  } catch (const std::invalid_argument& e) {
    std::cerr << "gpucast: internal error: an invalid value (" << e.what() << "); please report it\n";
    return 3;
  } catch (const std::exception& e) {
    std::cerr << "gpucast: internal error: " << e.what() << "; please report it\n";
    return 3;
  } catch (...) {
    std::cerr << "gpucast: internal error: unknown exception; please report it\n";
    return 3;
  }
}
