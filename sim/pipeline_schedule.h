#pragma once
// The 1F1B pipeline schedule (PipeDream-Flush / Megatron-LM): each of `stages` stages runs
// min(stages - s - 1, microbatches) warm-up forwards, then alternates one forward and one backward,
// then drains the remaining backwards. A stage's forward of microbatch j waits for the previous
// stage's; its backward waits for the next stage's. With equal stages the idle share of a step
// (the bubble) is (p - 1) / (m + p - 1).
#include <string>
#include <vector>

#include "device/units.h"

namespace gpucast::sim {
using device::Microseconds;

struct PipelineSegment {
  int stage = 0;
  int microbatch = 0;
  bool backward = false;
  Microseconds start_us = 0;
  Microseconds end_us = 0;
};

struct PipelineSchedule {
  std::vector<PipelineSegment> segments;
  Microseconds step_us = 0;     // the last stage's end of its last backward (or forward)
  Microseconds busy_us = 0;     // per stage: microbatches x (forward + backward)
  double bubble_fraction = 0;   // 1 - busy / step
};

// `forward_us` and `backward_us` are one stage's times for one microbatch (transfers included);
// backward_us = 0 for inference (forward-only pipelining). Throws InputError for stages or
// microbatches < 1 or negative times.
[[nodiscard]] PipelineSchedule schedule_1f1b(int stages, int microbatches, Microseconds forward_us,
                                             Microseconds backward_us);

}  // namespace gpucast::sim
