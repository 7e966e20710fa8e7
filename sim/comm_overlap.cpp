#include "sim/comm_overlap.h"

#include <algorithm>
#include <variant>

namespace gpucast::sim {
namespace {
using Span = std::pair<Microseconds, Microseconds>;

std::vector<Span> merged(std::vector<Span> spans) {
  std::sort(spans.begin(), spans.end());
  std::vector<Span> out;
  for (const auto& s : spans) {
    if (s.second <= s.first) continue;
    if (!out.empty() && s.first <= out.back().second) out.back().second = std::max(out.back().second, s.second);
    else out.push_back(s);
  }
  return out;
}

Microseconds length(const std::vector<Span>& spans) {
  Microseconds t = 0;
  for (const auto& s : spans) t += s.second - s.first;
  return t;
}

// Length of the intersection of two merged span lists.
Microseconds intersection(const std::vector<Span>& a, const std::vector<Span>& b) {
  Microseconds t = 0;
  size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    const Microseconds lo = std::max(a[i].first, b[j].first), hi = std::min(a[i].second, b[j].second);
    if (hi > lo) t += hi - lo;
    (a[i].second < b[j].second ? i : j)++;
  }
  return t;
}
}  // namespace

CommunicationTime communication_time(const wl::Workload& w, const Prediction& p) {
  std::vector<Span> comm, compute;
  CommunicationTime out;
  for (size_t i = 0; i < w.size() && i < p.kernels.size(); ++i) {
    const auto& s = p.kernels[i].scheduled;
    if (std::holds_alternative<wl::CollectiveOp>(w.kernels()[i].op)) {
      comm.emplace_back(s.start_us, s.end_us);
      ++out.collectives;
    } else {
      compute.emplace_back(s.start_us, s.end_us);
    }
  }
  const auto c = merged(std::move(comm));
  const auto k = merged(std::move(compute));
  out.total_us = length(c);
  out.overlapped_us = intersection(c, k);
  out.exposed_us = out.total_us - out.overlapped_us;
  return out;
}

}  // namespace gpucast::sim
