#pragma once
// How launch and host overhead work: every cost of issuing work, in one structure that the op
// predictor (do_bench-style standalone ops), the timeline (eager and graph workloads) and
// calibration all read. Values come from the GPU description's `launch.*` keys.
#include "device/units.h"

namespace gpucast::device {

struct LaunchCosts {
  // GPU side.
  Microseconds cold_kernel_us = 0;    // a kernel whose launch the GPU waited for (do_bench's first kernel)
  Microseconds queued_kernel_us = 0;  // each further kernel queued behind earlier work on a stream
  Microseconds graph_kernel_us = 0;   // each kernel inside a CUDA graph replay
  Microseconds first_touch_us = 0;    // the first DRAM access after an L2 flush (TLB walk)
  // Host side (eager framework on the host CPU).
  Microseconds host_eager_us = 0;             // issuing one kernel from an eager framework op
  Microseconds host_library_us = 0;           // extra host time of a library op (GEMM, attention, norm, ...)
  Microseconds host_attention_decode_us = 0;  // host time of the library's decode-attention path per call
  // One graph replay is issued by one host call; its first kernel starts after a cold launch.
  Microseconds graph_replay_us = 0;
  // do_bench flushes the L2 before each timed call; host work shorter than the flush is hidden.
  Microseconds flush_us = 0;

  // GPU-side overhead of an op of `kernels` kernels timed alone (do_bench): the first kernel pays
  // the cold launch, each further one queues behind it, and reading DRAM first pays the first touch.
  [[nodiscard]] Microseconds standalone_overhead_us(int kernels, bool reads_dram) const {
    const double further = kernels > 1 ? kernels - 1 : 0;
    return cold_kernel_us + queued_kernel_us * further + (reads_dram ? first_touch_us : 0);
  }
  // Host-side library work that outlasts the flush ahead of it leaves the GPU waiting.
  [[nodiscard]] Microseconds exposed_host_us(Microseconds host_us) const {
    return host_us > flush_us ? host_us - flush_us : 0;
  }
};

}  // namespace gpucast::device
