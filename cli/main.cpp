// gpucast command line. Library code throws typed errors; this is the one place that prints them
// and chooses the exit code (0 ok, 1 error in input or model, 2 command-line misuse, 3 out of
// memory or an internal error). Nothing escapes as an abort, and the files a command writes appear
// only when it succeeds (cli/app.cpp commits them).
#include <iostream>
#if defined(__GLIBC__)
#include <malloc.h>
#endif
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

#include "cli/app.h"
#include "common/errors.h"

// The allocator's policy for this process. gpucast's large inputs (a workload file of 100,000
// kernels, a profiler trace) are trees of millions of small nodes, freed all at once. glibc's fast
// bins defer coalescing such frees to malloc_consolidate, which then walks every freed node again,
// cold: freeing a 100,000-kernel document took 0.10 s of CPU, 0.02 s with fast bins off (measured
// with `gpucast bench --load 100000`; the simulator's own timings do not change).
// Per-kernel arrays of a megabyte or more are mapped and unmapped on their own (a fixed mmap threshold):
// with glibc's sliding threshold, the first timing pass's freed arrays raised it and the power
// limiter's second pass (sim/simulator.cpp) took its arrays from the heap beside them, which kept
// 1,000,000 kernels' peak at 519 MB instead of 464 MB (`gpucast bench --kernels 1000000`, same CPU time).
constexpr int kMmapThresholdBytes = 1 << 20;
namespace {
void set_allocator_policy() {
#if defined(__GLIBC__)
  mallopt(M_MXFAST, 0);
  mallopt(M_MMAP_THRESHOLD, kMmapThresholdBytes);
#endif
}
}  // namespace

int main(int argc, char** argv) {
  set_allocator_policy();
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
