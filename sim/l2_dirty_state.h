#pragma once
// The dirty L2 lines along a workload. An op's standalone prediction has do_bench semantics: the
// flush before it leaves the L2's dirty share (device::Device::l2_dirty_bytes) for its reads to evict
// and write back (models/l2_writeback.h). In a step the lines a kernel finds dirty are what the
// kernels before it wrote and nothing has evicted since: a decode step that streams weights and
// writes a few rows leaves almost none, a training step's activations keep the share full. The one
// rule both generated workloads and replayed traces use (sim::Simulator::predict applies it).
#include <optional>

#include "device/device.h"
#include "sim/op_predictor.h"

namespace gpucast::sim {

class DirtyL2 {
 public:
  // A workload starts from a full dirty share, as an op after do_bench's flush does.
  explicit DirtyL2(const device::Device& gpu);
  // The share of a flushed L2's dirty lines the next kernel finds, in [0, 1].
  [[nodiscard]] double share() const { return full_bytes_ > 0 ? dirty_bytes_ / full_bytes_ : 0.0; }
  // After a kernel that read `read_bytes` and wrote `write_bytes` through the L2: its reads evicted
  // dirty lines as models/l2_writeback.h has them, its writes are dirty lines of their own.
  void after(double read_bytes, double write_bytes);

 private:
  double full_bytes_ = 0;
  double lines_bytes_ = 0;
  double dirty_bytes_ = 0;
};

// `flushed`'s timing when its kernels find `share` of the dirty lines it was timed with: their
// write-backs (KernelTiming::writeback_us) scale with it. nullopt when nothing changes.
[[nodiscard]] std::optional<OpTiming> dirty_share_timing(const OpTiming& flushed, double share);

}  // namespace gpucast::sim
