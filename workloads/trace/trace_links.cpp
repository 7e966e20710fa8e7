#include "workloads/trace/trace_links.h"

#include <algorithm>
#include <unordered_map>

#include "common/errors.h"

namespace gpucast::trace {
namespace {

[[noreturn]] void fail(const KinetoTrace& t, const std::string& key, const std::string& message) {
  throw InputError(SourceLocation{t.origin}, key, message);
}

std::string step_list(const KinetoTrace& t) {
  std::string out;
  for (size_t i = 0; i < t.steps.size(); ++i) {
    if (i == 8 && t.steps.size() > 10) {
      out += ", ... " + std::to_string(t.steps.back().step);
      break;
    }
    out += (out.empty() ? "" : ", ") + std::to_string(t.steps[i].step);
  }
  return out;
}

// A step is complete when every GPU activity launched inside it was recorded and ended before the
// trace's last GPU timestamp (the profiler stops collecting at the end of the last active step).
bool step_complete(const KinetoTrace& t, const StepSpan& s,
                   const std::unordered_map<std::int64_t, size_t>& gpu_by_correlation) {
  size_t launches = 0;
  for (const auto& r : t.runtime) {
    if (r.ts_us < s.ts_us || r.ts_us > s.end_us()) continue;
    if (is_host_sync(r.name) && r.name.find("Memcpy") == std::string::npos) continue;
    if (r.name.find("Launch") == std::string::npos && r.name.find("Memcpy") == std::string::npos &&
        r.name.find("Memset") == std::string::npos)
      continue;
    ++launches;
    if (!gpu_by_correlation.count(r.correlation)) return false;
  }
  return launches > 0;
}

}  // namespace

bool is_host_sync(const std::string& n) {
  return n == "cudaStreamSynchronize" || n == "cudaDeviceSynchronize" || n == "cudaEventSynchronize" ||
         n == "cudaMemcpy" || n == "cuStreamSynchronize" || n == "cuCtxSynchronize" || n == "cuEventSynchronize" ||
         n == "cudaMemcpy2D" || n == "cudaMemset";
}

StepWindow select_step(const KinetoTrace& t, const std::string& step) {
  StepWindow w;
  if (t.steps.empty()) {
    if (!step.empty() && step != "all")
      fail(t, "--step", "step " + step + " does not exist: the trace has no ProfilerStep#N spans (record with "
                        "torch.profiler.profile(schedule=...) and call prof.step() each iteration); leave --step out "
                        "to replay the whole trace");
    w.label = "the whole trace (no ProfilerStep spans)";
    w.begin_us = 1e300;
    w.end_us = -1e300;
    for (const auto& g : t.gpu) {
      w.begin_us = std::min(w.begin_us, g.ts_us);
      w.end_us = std::max(w.end_us, g.ts_us + g.dur_us);
    }
    for (const auto& r : t.runtime) {
      w.begin_us = std::min(w.begin_us, r.ts_us);
      w.end_us = std::max(w.end_us, r.end_us());
    }
    for (const auto& c : t.cpu_ops) {
      w.begin_us = std::min(w.begin_us, c.ts_us);
      w.end_us = std::max(w.end_us, c.end_us());
    }
    return w;
  }
  if (step == "all") {
    w.label = "steps " + std::to_string(t.steps.front().step) + "-" + std::to_string(t.steps.back().step);
    w.begin_us = t.steps.front().ts_us;
    w.end_us = 0;
    for (const auto& s : t.steps) {
      w.begin_us = std::min(w.begin_us, s.ts_us);
      w.end_us = std::max(w.end_us, s.end_us());
      w.steps.push_back(s.step);
    }
    return w;
  }
  const StepSpan* chosen = nullptr;
  if (step.empty()) {
    std::unordered_map<std::int64_t, size_t> by_corr;
    for (size_t i = 0; i < t.gpu.size(); ++i) by_corr.emplace(t.gpu[i].correlation, i);
    for (auto it = t.steps.rbegin(); it != t.steps.rend() && !chosen; ++it)
      if (step_complete(t, *it, by_corr)) chosen = &*it;
    if (!chosen) fail(t, "--step", "no complete ProfilerStep in the trace (steps " + step_list(t) + ")");
  } else {
    std::int64_t n = 0;
    try {
      size_t used = 0;
      n = std::stoll(step, &used);
      if (used != step.size()) throw std::invalid_argument(step);
    } catch (...) {
      fail(t, "--step", "'" + step + "' is not a step number or 'all'");
    }
    for (const auto& s : t.steps)
      if (s.step == n) chosen = &s;
    if (!chosen)
      fail(t, "--step", "step " + step + " does not exist in the trace; its steps: " + step_list(t));
  }
  w.label = "ProfilerStep#" + std::to_string(chosen->step);
  w.begin_us = chosen->ts_us;
  w.end_us = chosen->end_us();
  w.steps.push_back(chosen->step);
  return w;
}

TraceLinks link_trace(KinetoTrace& t, const StepWindow& window) {
  TraceLinks out;
  out.backlog_end_us = window.begin_us;
  // Parents: per thread, ops sorted by start (longer first at equal start), swept with a stack.
  std::vector<std::int32_t> order(t.cpu_ops.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = static_cast<std::int32_t>(i);
  std::sort(order.begin(), order.end(), [&](std::int32_t a, std::int32_t b) {
    const auto &x = t.cpu_ops[a], &y = t.cpu_ops[b];
    if (x.tid != y.tid) return x.tid < y.tid;
    if (x.ts_us != y.ts_us) return x.ts_us < y.ts_us;
    return x.dur_us > y.dur_us;
  });
  {
    std::vector<std::int32_t> stack;
    std::int64_t tid = 0;
    for (size_t k = 0; k < order.size(); ++k) {
      auto& op = t.cpu_ops[order[k]];
      if (k == 0 || op.tid != tid) {
        stack.clear();
        tid = op.tid;
      }
      while (!stack.empty() && t.cpu_ops[stack.back()].end_us() < op.ts_us) stack.pop_back();
      op.parent = stack.empty() ? -1 : stack.back();
      stack.push_back(order[k]);
    }
  }
  // Innermost op around each runtime call: the same sweep, calls merged in.
  std::vector<std::int32_t> call_order;
  for (size_t i = 0; i < t.runtime.size(); ++i) call_order.push_back(static_cast<std::int32_t>(i));
  std::sort(call_order.begin(), call_order.end(), [&](std::int32_t a, std::int32_t b) {
    const auto &x = t.runtime[a], &y = t.runtime[b];
    return x.tid != y.tid ? x.tid < y.tid : x.ts_us < y.ts_us;
  });
  std::vector<std::int32_t> enclosing(t.runtime.size(), -1);
  {
    size_t k = 0;  // position in `order`
    std::vector<std::int32_t> stack;
    std::int64_t tid = 0;
    bool started = false;
    for (std::int32_t c : call_order) {
      const auto& call = t.runtime[c];
      if (!started || call.tid != tid) {
        stack.clear();
        tid = call.tid;
        started = true;
        while (k < order.size() && t.cpu_ops[order[k]].tid < tid) ++k;
      }
      while (k < order.size() && t.cpu_ops[order[k]].tid == tid && t.cpu_ops[order[k]].ts_us <= call.ts_us) {
        const auto& op = t.cpu_ops[order[k]];
        while (!stack.empty() && t.cpu_ops[stack.back()].end_us() < op.ts_us) stack.pop_back();
        stack.push_back(order[k]);
        ++k;
      }
      while (!stack.empty() && t.cpu_ops[stack.back()].end_us() < call.ts_us) stack.pop_back();
      enclosing[c] = stack.empty() ? -1 : stack.back();
    }
  }
  // External ids name the launching op directly; use them when they agree with the thread.
  std::unordered_map<std::int64_t, std::int32_t> op_by_external;
  for (size_t i = 0; i < t.cpu_ops.size(); ++i)
    if (t.cpu_ops[i].external_id >= 0) op_by_external.emplace(t.cpu_ops[i].external_id, static_cast<std::int32_t>(i));
  std::unordered_map<std::int64_t, std::int32_t> call_by_corr;
  for (size_t i = 0; i < t.runtime.size(); ++i)
    if (t.runtime[i].correlation >= 0) call_by_corr.emplace(t.runtime[i].correlation, static_cast<std::int32_t>(i));

  for (size_t g = 0; g < t.gpu.size(); ++g) {
    const auto& act = t.gpu[g];
    LinkedActivity l;
    l.gpu = g;
    if (auto it = call_by_corr.find(act.correlation); act.correlation >= 0 && it != call_by_corr.end()) l.runtime = it->second;
    const double when = l.runtime >= 0 ? t.runtime[l.runtime].ts_us : act.ts_us;
    if (when < window.begin_us) out.backlog_end_us = std::max(out.backlog_end_us, act.ts_us + act.dur_us);
    if (when < window.begin_us || when > window.end_us) continue;
    if (l.runtime < 0) ++out.unlinked;
    if (l.runtime >= 0) {
      l.innermost = enclosing[l.runtime];
      const auto ext = t.runtime[l.runtime].external_id;
      if (l.innermost < 0 && ext >= 0)
        if (auto it = op_by_external.find(ext); it != op_by_external.end()) l.innermost = it->second;
    }
    for (std::int32_t p = l.innermost; p >= 0; p = t.cpu_ops[p].parent) l.outermost = p;
    out.activities.push_back(l);
  }
  auto launch_time = [&](const LinkedActivity& l) {
    return l.runtime >= 0 ? t.runtime[l.runtime].ts_us : t.gpu[l.gpu].ts_us;
  };
  std::stable_sort(out.activities.begin(), out.activities.end(),
                   [&](const auto& a, const auto& b) { return launch_time(a) < launch_time(b); });
  for (size_t i = 0; i < t.runtime.size(); ++i) {
    const auto& r = t.runtime[i];
    if (r.ts_us >= window.begin_us && r.ts_us <= window.end_us && is_host_sync(r.name)) out.syncs.push_back(i);
  }
  std::sort(out.syncs.begin(), out.syncs.end(),
            [&](size_t a, size_t b) { return t.runtime[a].ts_us < t.runtime[b].ts_us; });
  return out;
}

}  // namespace gpucast::trace
