#pragma once
// Linking a trace's pieces: each GPU activity to the runtime call that launched it (correlation
// id), that call to the CPU ops around it on its thread (innermost: the op that launched it;
// outermost: the top-level aten op), and the selection of one ProfilerStep#N window.
#include <optional>
#include <string>
#include <vector>

#include "workloads/trace/kineto_trace.h"

namespace gpucast::trace {

struct LinkedActivity {
  size_t gpu = 0;            // index into KinetoTrace::gpu
  std::int32_t runtime = -1; // the launching runtime call, -1 when the trace lacks it
  std::int32_t innermost = -1;  // CPU op enclosing the launch (deepest)
  std::int32_t outermost = -1;  // top-level CPU op enclosing the launch
};

// A time window of the trace to replay (a step, every step, or the whole trace).
struct StepWindow {
  std::string label;       // "ProfilerStep#7", "steps 3-7", "the whole trace"
  double begin_us = 0, end_us = 0;
  std::vector<std::int64_t> steps;  // step numbers inside
};

// Chooses the window: `step` empty -> the last complete step (every launch in it has its GPU
// activity) or the whole trace when it has no ProfilerStep spans; "all" -> from the first step's
// start to the last step's end; a number -> that step. Throws InputError naming the trace and
// the steps it holds when the step does not exist.
[[nodiscard]] StepWindow select_step(const KinetoTrace& t, const std::string& step);

struct TraceLinks {
  std::vector<LinkedActivity> activities;  // the window's GPU activities in launch order
  std::vector<size_t> syncs;               // runtime calls that block the host, in time order
  size_t unlinked = 0;                     // activities without a launching runtime call
  // When the GPU finished the work launched before the window (the previous step's backlog of a
  // GPU-bound loop); the window's begin when the GPU was idle by then.
  double backlog_end_us = 0;
};

// Sets CpuOp::parent (enclosing op on the same thread) and links the activities launched inside
// `window` (by their runtime call's start; activities without one by their own start).
[[nodiscard]] TraceLinks link_trace(KinetoTrace& t, const StepWindow& window);

// Runtime calls that make the host wait for the GPU.
[[nodiscard]] bool is_host_sync(const std::string& runtime_name);

}  // namespace gpucast::trace
