#include "sim/time_attribution.h"

#include <algorithm>

namespace gpucast::sim {

TimeAttribution attribute_time(const Prediction& p) {
  TimeAttribution out;
  const size_t n = p.kernels.size();
  out.kernel_us.assign(n, 0.0);
  const Microseconds end_of_step = p.total_us;
  out.total_us = end_of_step;

  // Sweep the kernels' start and end events in time order; between two events the interval goes
  // to the kernels running then (equal parts) or to idle.
  struct Event {
    Microseconds t;
    bool start;
    size_t kernel;
  };
  std::vector<Event> events;
  events.reserve(2 * n);
  for (size_t i = 0; i < n; ++i) {
    const auto& s = p.kernels[i].scheduled;
    const Microseconds a = std::clamp(s.start_us, 0.0, end_of_step);
    const Microseconds b = std::clamp(s.end_us, a, end_of_step);
    if (b <= a) continue;
    events.push_back({a, true, i});
    events.push_back({b, false, i});
  }
  std::sort(events.begin(), events.end(), [](const Event& x, const Event& y) {
    if (x.t != y.t) return x.t < y.t;
    return !x.start && y.start;  // ends before starts at the same instant
  });
  std::vector<size_t> running;
  Microseconds now = 0;
  for (const auto& e : events) {
    const Microseconds dt = e.t - now;
    if (dt > 0) {
      if (running.empty()) {
        out.idle_us += dt;
      } else {
        const Microseconds part = dt / static_cast<double>(running.size());
        for (size_t k : running) out.kernel_us[k] += part;
      }
      now = e.t;
    }
    if (e.start) {
      running.push_back(e.kernel);
    } else {
      running.erase(std::find(running.begin(), running.end(), e.kernel));
    }
  }
  if (end_of_step > now) out.idle_us += end_of_step - now;

  for (size_t i = 0; i < n; ++i) {
    const auto& k = p.kernels[i];
    out.by_op[std::string(k.op)] += out.kernel_us[i];
    out.by_bound[std::string(bound_name(k.timing->bound))] += out.kernel_us[i];
  }
  if (out.idle_us > 0) {
    out.by_op[kIdleCategory] += out.idle_us;
    out.by_bound[kIdleCategory] += out.idle_us;
  }
  return out;
}

}  // namespace gpucast::sim
