// gpucast command line. Library code throws typed errors; this is the one place that prints them
// and chooses the exit code (0 ok, 1 error in input or model, 2 command-line misuse, 3 out of
// memory or an internal error). Nothing escapes as an abort, and the files a command writes appear
// only when it succeeds (cli/app.cpp commits them).
#include <iostream>
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

#include "cli/app.h"
#include "common/errors.h"

int main(int argc, char** argv) {
  try {
    const std::vector<std::string> args(argv + 1, argv + argc);
    return gpucast::cli::run_main(args, "gpucast");
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
