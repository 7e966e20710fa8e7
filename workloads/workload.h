#pragma once
// A workload: named kernels on streams and the dependency DAG between them (Boost.Graph).
// Kernels on one stream run in file order; `after` adds cross-stream (or extra) dependencies.
#include <algorithm>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <boost/graph/adjacency_list.hpp>

#include "common/errors.h"
#include "workloads/host_work.h"
#include "workloads/op.h"

namespace gpucast::wl {

enum class LaunchMode {
  eager,  // the host issues every kernel (framework eager mode)
  graph,  // CUDA graph replay: one host call, a small GPU-side cost per kernel
};
[[nodiscard]] std::string_view launch_mode_name(LaunchMode mode);

struct Kernel {
  // Fields ordered for size (a million-kernel workload holds a million of these).
  std::string name;
  Op op;
  std::vector<std::string> after;  // explicit dependencies by name
  // Host side (eager mode). Empty `host`: default_host_work(op). `sync`: after issuing this kernel
  // the host waits until it (and everything issued before it) has finished (.item()).
  HostWork host;
  // Replayed host time (profiler traces): the host works this long after issuing the previous
  // kernel before it issues this one (instead of the per-launch host cost) ...
  std::optional<double> host_delay_us;
  // ... and, when set, this far into that time it waits until all earlier GPU work has finished
  // (cudaStreamSynchronize, .item(), a synchronous copy).
  std::optional<double> host_sync_at_us;
  // Where the [[kernel]] entry starts in its workload file (Workload::where adds the file).
  SourcePosition position;
  int stream = 0;
  // Which earlier kernel on this stream wrote the tensor this one reads: 1 = the previous one, 2 = the
  // one before it; 0 = not known, the L2 reuse rule's own guess (sim/warm_l2.h). Traces set it where
  // the producer is known not to be the previous kernel (autograd's sum_to reductions).
  int input_from_back = 0;
  bool sync = false;
};

// A read-only view of kernel indices (one kernel's predecessors), stored contiguously.
class IndexSpan {
 public:
  IndexSpan(const size_t* first, const size_t* last) : first_(first), last_(last) {}
  [[nodiscard]] const size_t* begin() const { return first_; }
  [[nodiscard]] const size_t* end() const { return last_; }
  [[nodiscard]] size_t size() const { return static_cast<size_t>(last_ - first_); }
  [[nodiscard]] bool empty() const { return first_ == last_; }
  [[nodiscard]] size_t operator[](size_t i) const { return first_[i]; }
  [[nodiscard]] bool operator==(const std::vector<size_t>& other) const {
    return size() == other.size() && std::equal(first_, last_, other.begin());
  }

 private:
  const size_t* first_;
  const size_t* last_;
};

// Edge u -> v: v may start only after u ends.
using DependencyGraph = boost::adjacency_list<boost::vecS, boost::vecS, boost::bidirectionalS>;

class Workload {
 public:
  // Checks names and dependencies and builds the graph; throws InputError for duplicate names,
  // unknown dependencies and cycles (naming the kernels on the cycle).
  static Workload build(std::string name, LaunchMode launch, std::vector<Kernel> kernels,
                        std::optional<double> host_launch_us = std::nullopt, std::string origin = {});

  [[nodiscard]] const std::string& name() const { return name_; }
  [[nodiscard]] LaunchMode launch() const { return launch_; }
  // Host cost per eager launch when the workload file sets it (else the GPU's launch.host_eager_us).
  [[nodiscard]] std::optional<double> host_launch_us() const { return host_launch_us_; }
  [[nodiscard]] const std::string& origin() const { return origin_; }
  // Kernel i's place for error messages: the workload's origin and the kernel's position in it.
  [[nodiscard]] SourceLocation where(size_t i) const {
    return SourceLocation{origin_, kernels_[i].position.line, kernels_[i].position.column};
  }
  [[nodiscard]] const std::vector<Kernel>& kernels() const { return kernels_; }
  // The dependency DAG as a Boost graph, built on first use (the simulator needs only the
  // predecessor lists; a million-vertex Boost graph cost a quarter of a large workload's build).
  [[nodiscard]] const DependencyGraph& graph() const;
  // Indices of the kernels `i` waits for.
  [[nodiscard]] IndexSpan predecessors(size_t i) const {
    return {pred_list_.data() + pred_offsets_[i], pred_list_.data() + pred_offsets_[i + 1]};
  }
  [[nodiscard]] size_t size() const { return kernels_.size(); }
  // The same workload with another eager host cost per kernel.
  [[nodiscard]] Workload with_host_launch_us(double us) const {
    Workload w = *this;
    w.host_launch_us_ = us;
    return w;
  }
  // Host time after the last kernel is issued (a replayed trace's step tail), when known.
  [[nodiscard]] std::optional<double> host_tail_us() const { return host_tail_us_; }
  [[nodiscard]] Workload with_host_tail_us(double us) const& {
    Workload w = *this;
    w.host_tail_us_ = us;
    return w;
  }
  [[nodiscard]] Workload with_host_tail_us(double us) && {  // no copy of a temporary's kernels
    host_tail_us_ = us;
    return std::move(*this);
  }
  // The same workload on a host `speed` times as fast: replayed host delays, sync points and the
  // tail divide by it (speed > 0).
  [[nodiscard]] Workload with_host_speed(double speed) const;
  // True when any kernel carries a replayed host delay.
  [[nodiscard]] bool replays_host() const;

 private:
  std::string name_;
  LaunchMode launch_ = LaunchMode::eager;
  std::optional<double> host_launch_us_;
  std::optional<double> host_tail_us_;
  std::string origin_;
  std::vector<Kernel> kernels_;
  struct LazyGraph {
    std::once_flag once;
    DependencyGraph graph;
  };
  std::shared_ptr<LazyGraph> graph_ = std::make_shared<LazyGraph>();
  // Predecessors of kernel i: pred_list_[pred_offsets_[i] .. pred_offsets_[i + 1]) (one allocation
  // for the whole workload instead of one per kernel).
  std::vector<size_t> pred_offsets_{0};
  std::vector<size_t> pred_list_;
};

}  // namespace gpucast::wl
