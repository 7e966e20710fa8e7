#include "sim/pipeline_schedule.h"

#include <algorithm>
#include <cmath>

#include "common/errors.h"

namespace gpucast::sim {

PipelineSchedule schedule_1f1b(int p, int m, Microseconds tf, Microseconds tb) {
  if (p < 1 || m < 1) throw InputError(SourceLocation{}, "--pp", "pipeline stages and microbatches must be >= 1");
  if (!(tf >= 0) || !(tb >= 0) || !std::isfinite(tf) || !std::isfinite(tb))
    throw InputError(SourceLocation{}, "--pp", "stage times must be finite and >= 0");
  const bool train = tb > 0;
  // Each stage's program: the order of its forward (F) and backward (B) steps.
  std::vector<std::vector<std::pair<bool, int>>> program(p);
  for (int s = 0; s < p; ++s) {
    auto& prog = program[s];
    if (!train) {
      for (int j = 0; j < m; ++j) prog.emplace_back(false, j);
      continue;
    }
    const int warmup = std::min(p - s - 1, m);
    int f = 0, b = 0;
    for (; f < warmup; ++f) prog.emplace_back(false, f);
    while (f < m) {
      prog.emplace_back(false, f++);
      prog.emplace_back(true, b++);
    }
    while (b < m) prog.emplace_back(true, b++);
  }
  std::vector<std::vector<Microseconds>> f_end(p, std::vector<Microseconds>(m, -1)),
      b_end(p, std::vector<Microseconds>(m, -1));
  std::vector<size_t> next(p, 0);
  std::vector<Microseconds> free_at(p, 0);
  PipelineSchedule out;
  size_t remaining = 0;
  for (const auto& prog : program) remaining += prog.size();
  while (remaining > 0) {
    bool progressed = false;
    for (int s = 0; s < p; ++s) {
      while (next[s] < program[s].size()) {
        const auto [backward, j] = program[s][next[s]];
        Microseconds ready = 0;
        if (!backward) {
          if (s > 0) {
            if (f_end[s - 1][j] < 0) break;
            ready = f_end[s - 1][j];
          }
        } else {
          const Microseconds dep = s + 1 < p ? b_end[s + 1][j] : f_end[s][j];
          if (dep < 0) break;
          ready = dep;
        }
        const Microseconds start = std::max(ready, free_at[s]);
        const Microseconds end = start + (backward ? tb : tf);
        (backward ? b_end : f_end)[s][j] = end;
        free_at[s] = end;
        out.segments.push_back({s, j, backward, start, end});
        ++next[s];
        --remaining;
        progressed = true;
      }
    }
    if (!progressed) throw Error("pipeline schedule deadlocked (internal error)");
  }
  for (const auto& seg : out.segments) out.step_us = std::max(out.step_us, seg.end_us);
  out.busy_us = m * (tf + tb);
  out.bubble_fraction = out.step_us > 0 ? 1 - out.busy_us / out.step_us : 0;
  return out;
}

}  // namespace gpucast::sim
