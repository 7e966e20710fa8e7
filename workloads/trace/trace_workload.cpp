#include "workloads/trace/trace_workload.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <unordered_map>

#include "sim/traced_timing.h"
#include "workloads/trace/autograd_sum_to.h"
#include "workloads/trace/op_recognition.h"

namespace gpucast::trace {
namespace {

// A copy or fill of at most this many bytes does the least work of its kind: moving them takes
// nanoseconds, its time is the launch's (assumption: one 4 KB page; the traces' smallest are 4-byte
// fills and 256 B - 2 KB device copies).
constexpr double kFloorTransferBytes = 4096;

struct Group {
  std::vector<size_t> members;  // indices into links.activities
  std::int32_t op = -1;         // recognized CPU op
  std::optional<wl::Op> recognized;
};

wl::Op memory_op(const GpuActivity& g) {
  if (g.kind == GpuActivityKind::memcpy) {
    wl::CopyOp c;
    c.bytes = std::max(1.0, g.bytes);
    c.kind = g.name.find("HtoD") != std::string::npos   ? wl::CopyKind::h2d
             : g.name.find("DtoH") != std::string::npos ? wl::CopyKind::d2h
                                                        : wl::CopyKind::d2d;
    return c;
  }
  wl::ElementwiseOp e;  // memset: a pure write
  e.elements = std::max<wl::Count>(1, static_cast<wl::Count>(g.bytes / 4));
  e.dtype = e.out_dtype = DataType::fp32;
  e.inputs = 0;
  return e;
}

// The scaled stand-in for kernels no op model re-predicts: its bound on the source GPU from its own
// work estimate, the kernel name, the grid and the launch floor.
wl::TracedOp scaled_op(const KinetoTrace& t, const Group& grp, const std::vector<LinkedActivity>& acts,
                       const CpuOp* op, const hw::GpuSpec& source) {
  wl::TracedOp s;
  for (size_t m : grp.members) {
    const auto& g = t.gpu[acts[m].gpu];
    s.measured_us += g.dur_us;
    s.blocks = std::max(s.blocks, g.blocks());
  }
  s.kernels = static_cast<int>(grp.members.size());
  const auto& first = t.gpu[acts[grp.members.front()].gpu];
  const std::string family = kernel_family(first.name);
  if (family == "gemm" || family == "conv" || family == "attention") {
    const auto dt = kernel_dtype(first.name);
    s.pipe = dt && *dt != DataType::fp32 ? wl::TracedPipe::tensor : wl::TracedPipe::fp32;
    s.dtype = dt.value_or(DataType::fp32);
  }
  if (op) s.bytes = input_bytes(*op) * 1.5;  // inputs read, an output of the largest input's order written
  sim::set_traced_source(s, source);
  const double per_kernel = s.measured_us / s.kernels;
  const double sms = std::max(1, source.sm.count);
  if (per_kernel <= 1.5 * s.source_floor_us) {
    s.bound = wl::TracedBound::launch;
  } else if (s.pipe == wl::TracedPipe::tensor) {
    s.bound = (s.blocks > 0 && s.blocks < sms) ? wl::TracedBound::latency : wl::TracedBound::compute;
  } else if (s.blocks > 0 && s.blocks < sms) {
    s.bound = wl::TracedBound::latency;
  } else if (s.bytes > 0) {
    // Achieved DRAM bandwidth against the source's sustained rate: a quarter or more streams.
    const double achieved_gbps = s.bytes / (s.measured_us * 1e3);
    s.bound = achieved_gbps >= 0.25 * s.source_dram_gbps ? wl::TracedBound::memory : wl::TracedBound::latency;
  } else {
    s.bound = family == "gemm" || family == "conv" || family == "attention" ? wl::TracedBound::compute
                                                                            : wl::TracedBound::memory;
  }
  return s;
}

std::string op_label(const std::string& cpu_op) {
  std::string n = cpu_op.rfind("aten::", 0) == 0 ? cpu_op.substr(6) : cpu_op;
  std::string out;
  for (char c : n) out += (std::isalnum(static_cast<unsigned char>(c)) || c == '_') ? c : '_';
  if (out.size() > 40) out.resize(40);
  return out;
}

// The GPU's floor of each activity kind (kernel, memcpy, memset): what the GPU takes for the least
// work of that kind (launch to retire). A kernel's is the shortest kernel. A copy or fill moving at
// most kFloorTransferBytes does the least work its kind can do, and its time varies from one to the
// next (the H100 traces' 4-byte memsets: 0.70-2.4 us, llama1b-train's median 0.99 us): its floor is
// the median of those, the typical time of the least work rather than the luckiest; the shortest
// activity when none moves so little. 0 for a kind that does not occur.
std::array<double, 3> activity_floors(const KinetoTrace& t, const std::vector<LinkedActivity>& acts) {
  std::array<double, 3> floors{0, 0, 0};
  std::array<bool, 3> seen{false, false, false};
  std::array<std::vector<double>, 3> least_work;
  for (const auto& a : acts) {
    const auto& g = t.gpu[a.gpu];
    const auto kind = static_cast<size_t>(g.kind);
    floors[kind] = seen[kind] ? std::min(floors[kind], g.dur_us) : g.dur_us;
    seen[kind] = true;
    if (g.kind != GpuActivityKind::kernel && g.bytes <= kFloorTransferBytes)
      least_work[kind].push_back(g.dur_us);
  }
  for (size_t kind = 0; kind < floors.size(); ++kind) {
    auto& d = least_work[kind];
    if (d.empty()) continue;
    std::nth_element(d.begin(), d.begin() + std::ptrdiff_t(d.size() / 2), d.end());
    floors[kind] = d[d.size() / 2];
  }
  return floors;
}

}  // namespace

TraceImport import_trace(KinetoTrace& t, const StepWindow& window, const hw::GpuSpec& source,
                         const std::string& name) {
  TraceImport out;
  out.window = window;
  out.source_gpu = source.id;
  if (!t.devices.empty()) out.device_name = t.devices.front().name;
  const TraceLinks links = link_trace(t, window);
  const auto& acts = links.activities;
  if (acts.empty())
    throw InputError(
        SourceLocation{t.origin}, "--step",
        "no GPU kernels were launched in " + window.label + " (is CUDA activity recorded for it?)");
  for (const auto& op : t.cpu_ops)
    if (op.has_shapes) {
      out.shapes = true;
      break;
    }

  // Groups: the kernels of one recognized CPU op instance become one workload kernel; every
  // other kernel stands alone.
  std::vector<Group> groups;
  std::unordered_map<std::int32_t, size_t> group_of_op;
  std::vector<size_t> group_of_act(acts.size());
  for (size_t i = 0; i < acts.size(); ++i) {
    const auto& g = t.gpu[acts[i].gpu];
    std::int32_t found = -1;
    std::optional<wl::Op> op;
    if (g.kind == GpuActivityKind::kernel) {
      for (std::int32_t p = acts[i].innermost; p >= 0 && !op; p = t.cpu_ops[p].parent) {
        op = recognize_op(t.cpu_ops[p], g.name);
        if (op) found = p;
      }
    }
    if (found >= 0) {
      auto [it, inserted] = group_of_op.emplace(found, groups.size());
      if (inserted) groups.push_back(Group{{}, found, op});
      groups[it->second].members.push_back(i);
      group_of_act[i] = it->second;
    } else {
      Group grp;
      grp.members.push_back(i);
      if (g.kind != GpuActivityKind::kernel) grp.recognized = memory_op(g);
      group_of_act[i] = groups.size();
      groups.push_back(std::move(grp));
    }
  }

  for (auto& grp : groups) {
    if (grp.op < 0 || !grp.recognized || !foreach_without_sizes(t.cpu_ops[grp.op])) continue;
    auto* e = std::get_if<wl::ElementwiseOp>(&*grp.recognized);
    if (!e) continue;
    double blocks = 0;
    for (size_t m : grp.members) blocks += t.gpu[acts[m].gpu].blocks();
    e->elements = std::max<wl::Count>(1, static_cast<wl::Count>(blocks * kForeachChunkElements));
  }

  // The GPU's floor per activity kind: the trace's shortest kernel, memset and memcpy.
  const std::array<double, 3> floors = activity_floors(t, acts);

  // Host timeline of the trace: a group is issued when its first launch call returns.
  auto issue_time = [&](size_t act) {
    const auto& l = acts[act];
    return l.runtime >= 0 ? t.runtime[l.runtime].end_us() : t.gpu[l.gpu].ts_us;
  };
  // GPU finished everything launched before time x: prefix maximum of ends in launch order.
  std::vector<double> launch_ts(acts.size()), done_by(acts.size());
  double last_end = window.begin_us;
  for (size_t i = 0; i < acts.size(); ++i) {
    launch_ts[i] = acts[i].runtime >= 0 ? t.runtime[acts[i].runtime].ts_us : t.gpu[acts[i].gpu].ts_us;
    last_end = std::max(last_end, t.gpu[acts[i].gpu].ts_us + t.gpu[acts[i].gpu].dur_us);
    done_by[i] = last_end;
  }
  auto gpu_done_before = [&](double x) {
    const auto it = std::lower_bound(launch_ts.begin(), launch_ts.end(), x);
    return it == launch_ts.begin() ? window.begin_us
                                   : done_by[static_cast<size_t>(it - launch_ts.begin()) - 1];
  };
  // The host wait inside a sync call: from its start until the GPU finished what came before.
  auto sync_wait = [&](const RuntimeCall& s) {
    return std::max(0.0, std::min(s.end_us(), gpu_done_before(s.ts_us)) - s.ts_us);
  };

  // Stream waits from Kineto's cuda_sync events: (waiting stream, launch time of the wait call) ->
  // (stream waited on, record time).
  std::unordered_map<std::int64_t, const RuntimeCall*> call_by_corr;
  for (const auto& r : t.runtime) call_by_corr.emplace(r.correlation, &r);

  std::vector<wl::Kernel> kernels;
  kernels.reserve(groups.size());
  std::vector<std::string> names(groups.size());
  std::vector<size_t> order(groups.size());
  for (size_t i = 0; i < groups.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return issue_time(groups[a].members.front()) < issue_time(groups[b].members.front());
  });
  size_t next_sync = 0;
  // The replay starts when the GPU is free of earlier work; host time before that is already spent.
  const double start = std::max(window.begin_us, links.backlog_end_us);
  out.replay_start_us = start - window.begin_us;
  double prev_issue = start;
  std::vector<size_t> position(groups.size());
  std::vector<const CpuOp*> op_of_kernel(groups.size(), nullptr);
  for (size_t rank = 0; rank < order.size(); ++rank) {
    const Group& grp = groups[order[rank]];
    position[order[rank]] = rank;
    const auto& first_act = acts[grp.members.front()];
    const auto& g = t.gpu[first_act.gpu];
    const CpuOp* op = grp.op >= 0                ? &t.cpu_ops[grp.op]
                      : first_act.innermost >= 0 ? &t.cpu_ops[first_act.innermost]
                                                 : nullptr;
    op_of_kernel[rank] = op;
    TracedKernelRecord rec;
    rec.trace_kernel = g.name;
    rec.cpu_op = op ? op->name : "";
    rec.outer_op = first_act.outermost >= 0 ? t.cpu_ops[first_act.outermost].name : "";
    rec.kernel_family = kernel_family(g.name);
    rec.kernels = static_cast<int>(grp.members.size());
    for (size_t m : grp.members) {
      rec.measured_us += t.gpu[acts[m].gpu].dur_us;
      rec.floor_us += floors[static_cast<size_t>(t.gpu[acts[m].gpu].kind)];
    }
    rec.measured_start_us = g.ts_us - start;
    rec.recognized = grp.recognized.has_value();

    wl::Kernel k;
    k.op = grp.recognized ? *grp.recognized : wl::Op{scaled_op(t, grp, acts, op, source)};
    k.stream = static_cast<int>(g.stream);
    const std::string label = grp.recognized && op                ? op_label(op->name)
                              : g.kind != GpuActivityKind::kernel ? rec.kernel_family
                                                                  : "traced_" + rec.kernel_family;
    k.name = label + "_" + std::to_string(rank);
    names[order[rank]] = k.name;
    // Host delay since the previous issue, less the time the host spent waiting in syncs.
    const double issue = std::max(start, issue_time(grp.members.front()));
    double waits = 0;
    std::optional<double> sync_at;
    while (next_sync < links.syncs.size() && t.runtime[links.syncs[next_sync]].ts_us < issue) {
      const auto& s = t.runtime[links.syncs[next_sync]];
      if (s.ts_us >= prev_issue) {
        if (!sync_at) sync_at = s.ts_us - prev_issue;
        waits += std::min(sync_wait(s), issue - prev_issue);
        ++out.syncs;
      }
      ++next_sync;
    }
    const double delay = std::max(0.0, issue - prev_issue - waits);
    k.host_delay_us = delay;
    if (sync_at) k.host_sync_at_us = std::min(*sync_at, delay);
    prev_issue = std::max(prev_issue, issue);
    out.traced_gpu_us += rec.measured_us;
    if (rec.recognized) out.recognized_gpu_us += rec.measured_us;
    out.trace_kernels += grp.members.size();
    kernels.push_back(std::move(k));
    out.records.push_back(std::move(rec));
  }
  mark_sum_to_producers(t, op_of_kernel, kernels);

  // Cross-stream order. Recorded waits (cuda_sync events) name the event's stream and record
  // call; without them, a kernel that started on the GPU right as a kernel on another stream
  // ended, later than its own stream and its launch allowed, waited for it.
  std::map<std::int64_t, int> streams;
  for (const auto& k : kernels) ++streams[k.stream];
  if (streams.size() > 1) {
    std::vector<size_t> by_rank(order.size());
    for (size_t gi = 0; gi < groups.size(); ++gi) by_rank[position[gi]] = gi;
    auto start_of = [&](size_t gi) { return t.gpu[acts[groups[gi].members.front()].gpu].ts_us; };
    auto end_of = [&](size_t gi) {
      double e = 0;
      for (size_t m : groups[gi].members)
        e = std::max(e, t.gpu[acts[m].gpu].ts_us + t.gpu[acts[m].gpu].dur_us);
      return e;
    };
    std::map<std::int64_t, std::optional<size_t>> last_on;
    constexpr double kSlackUs = 3.0;  // GPU-side gap between a waited-on kernel's end and the next start
    for (size_t rank = 0; rank < by_rank.size(); ++rank) {
      const size_t gi = by_rank[rank];
      const auto stream = kernels[rank].stream;
      const double start = start_of(gi);
      double ready = issue_time(groups[gi].members.front());
      if (auto it = last_on.find(stream); it != last_on.end() && it->second)
        ready = std::max(ready, end_of(*it->second));
      if (start > ready + kSlackUs) {
        std::optional<size_t> best;
        for (const auto& [other, last] : last_on) {
          if (other == stream || !last) continue;
          // the latest kernel on `other` that ended shortly before this start
          for (size_t r = position[*last] + 1; r-- > 0;) {
            const size_t cand = by_rank[r];
            if (kernels[r].stream != other) continue;
            const double e = end_of(cand);
            if (e <= start + 0.5 && e >= start - kSlackUs - 10) {
              if (!best || e > end_of(*best)) best = cand;
            }
            if (e < start - 50) break;
          }
        }
        if (best) {
          kernels[rank].after.push_back(names[*best]);
          ++out.stream_waits;
        }
      }
      last_on[stream] = gi;
    }
  }

  const double host_end = std::max(window.end_us, prev_issue);
  double tail_waits = 0;
  for (; next_sync < links.syncs.size(); ++next_sync) {
    const auto& s = t.runtime[links.syncs[next_sync]];
    if (s.ts_us >= prev_issue) {
      tail_waits += sync_wait(s);
      ++out.syncs;
    }
  }
  const double tail = std::max(0.0, host_end - prev_issue - tail_waits);
  // The measured step: from the window's start until both the host and the GPU are done.
  double gpu_end = window.begin_us;
  std::vector<std::pair<double, double>> spans;
  out.min_kernel_us = 1e300;
  for (const auto& a : acts) {
    const auto& g = t.gpu[a.gpu];
    out.min_kernel_us = std::min(out.min_kernel_us, g.dur_us);
    gpu_end = std::max(gpu_end, g.ts_us + g.dur_us);
    spans.emplace_back(g.ts_us, g.ts_us + g.dur_us);
  }
  std::sort(spans.begin(), spans.end());
  double covered = -1e300;
  for (const auto& [b, e] : spans) {
    out.measured_gpu_busy_us += std::max(0.0, e - std::max(b, covered));
    covered = std::max(covered, e);
  }
  out.measured_step_us = std::max(host_end, gpu_end) - start;
  out.workload = wl::Workload::build(name, wl::LaunchMode::eager, std::move(kernels), std::nullopt, t.origin)
                     .with_host_tail_us(tail);
  return out;
}

}  // namespace gpucast::trace
