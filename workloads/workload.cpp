#include "workloads/workload.h"

#include <algorithm>
#include <optional>
#include <string_view>
#include <unordered_map>

#include "common/huge_pages.h"
#include "common/suggest.h"

namespace gpucast::wl {

std::string_view launch_mode_name(LaunchMode mode) {
  return mode == LaunchMode::graph ? "graph" : "eager";
}

namespace {

// Finds one cycle with an iterative depth-first search; returns the kernels on it in order.
std::vector<size_t> find_cycle(const std::vector<std::vector<size_t>>& succ) {
  const size_t n = succ.size();
  std::vector<int> color(n, 0);  // 0 new, 1 on stack, 2 done
  std::vector<size_t> parent(n, n);
  for (size_t root = 0; root < n; ++root) {
    if (color[root]) continue;
    std::vector<std::pair<size_t, size_t>> stack{{root, 0}};
    color[root] = 1;
    while (!stack.empty()) {
      auto& [u, next] = stack.back();
      if (next < succ[u].size()) {
        const size_t v = succ[u][next++];
        if (color[v] == 0) {
          color[v] = 1;
          parent[v] = u;
          stack.emplace_back(v, 0);
        } else if (color[v] == 1) {
          std::vector<size_t> cycle{v};
          for (size_t w = u; w != v; w = parent[w]) cycle.push_back(w);
          std::reverse(cycle.begin() + 1, cycle.end());
          return cycle;
        }
      } else {
        color[u] = 2;
        stack.pop_back();
      }
    }
  }
  return {};
}

// Kernel names in one flat array sorted by hash (no allocation per name, unlike a node-based map:
// a million-kernel workload spent a fifth of its build in the map).
class NameIndex {
 public:
  explicit NameIndex(const std::vector<Kernel>& kernels) : kernels_(kernels) {
    entries_.reserve(kernels.size());
    for (size_t i = 0; i < kernels.size(); ++i) entries_.push_back({hash(kernels[i].name), i});
    std::sort(entries_.begin(), entries_.end());
  }
  // The first kernel (in workload order) whose name an earlier kernel already has, and that
  // earlier kernel; nullopt when the names are unique.
  [[nodiscard]] std::optional<std::pair<size_t, size_t>> first_duplicate() const {
    std::optional<std::pair<size_t, size_t>> best;
    for (size_t a = 0; a < entries_.size();) {
      size_t b = a + 1;
      while (b < entries_.size() && entries_[b].hash == entries_[a].hash) ++b;
      // Within one hash (index order), each kernel against the earlier ones of the same name.
      for (size_t j = a + 1; j < b; ++j)
        for (size_t i = a; i < j; ++i)
          if (name(entries_[i]) == name(entries_[j])) {
            if (!best || entries_[j].index < best->first) best = {{entries_[j].index, entries_[i].index}};
            break;
          }
      a = b;
    }
    return best;
  }
  // The first kernel with this name.
  [[nodiscard]] std::optional<size_t> find(std::string_view key) const {
    auto it = std::lower_bound(entries_.begin(), entries_.end(), Entry{hash(key), 0});
    for (; it != entries_.end() && it->hash == hash(key); ++it)
      if (name(*it) == key) return it->index;
    return std::nullopt;
  }

 private:
  struct Entry {
    size_t hash;
    size_t index;
    bool operator<(const Entry& o) const { return hash != o.hash ? hash < o.hash : index < o.index; }
  };
  static size_t hash(std::string_view s) { return std::hash<std::string_view>{}(s); }
  [[nodiscard]] std::string_view name(const Entry& e) const { return kernels_[e.index].name; }
  const std::vector<Kernel>& kernels_;
  std::vector<Entry> entries_;
};

}  // namespace

Workload Workload::build(std::string name, LaunchMode launch, std::vector<Kernel> kernels,
                         std::optional<double> host_launch_us, std::string origin) {
  Workload w;
  w.name_ = std::move(name);
  w.launch_ = launch;
  w.host_launch_us_ = host_launch_us;
  w.origin_ = std::move(origin);
  w.kernels_ = std::move(kernels);
  const size_t n = w.kernels_.size();

  // Names index the kernels in place (the strings live in kernels_, which no longer changes).
  const NameIndex index(w.kernels_);
  if (const auto dup = index.first_duplicate())
    throw InputError(w.where(dup->first), "name",
                     "duplicate kernel name '" + w.kernels_[dup->first].name + "' (first defined at " +
                         w.where(dup->second).str() + ")");

  reserve_large(w.pred_offsets_, n + 1);
  w.pred_offsets_.assign(n + 1, 0);
  w.pred_list_.clear();
  reserve_large(w.pred_list_, n);
  std::unordered_map<int, size_t> last_on_stream;
  std::vector<std::string> names;   // for suggestions, built only on error
  bool forward_dependency = false;  // an `after` naming a later kernel: a cycle is possible
  for (size_t i = 0; i < n; ++i) {
    const size_t first = w.pred_list_.size();
    w.pred_offsets_[i] = first;
    const auto& k = w.kernels_[i];
    if (auto it = last_on_stream.find(k.stream); it != last_on_stream.end())
      w.pred_list_.push_back(it->second);
    for (const auto& dep : k.after) {
      const auto found = index.find(dep);
      if (!found) {
        for (const auto& kk : w.kernels_) names.push_back(kk.name);
        throw InputError(
            w.where(i), "after",
            "kernel '" + k.name + "' depends on unknown kernel '" + dep + "'" + did_you_mean(dep, names));
      }
      const auto begin = w.pred_list_.begin() + static_cast<std::ptrdiff_t>(first);
      if (std::find(begin, w.pred_list_.end(), *found) == w.pred_list_.end()) w.pred_list_.push_back(*found);
      forward_dependency = forward_dependency || *found >= i;
    }
    last_on_stream[k.stream] = i;
  }
  w.pred_offsets_[n] = w.pred_list_.size();

  // Every edge points from an earlier kernel to a later one unless some `after` names a later
  // kernel (or itself); only then can there be a cycle.
  if (forward_dependency) {
    std::vector<std::vector<size_t>> succ(n);
    for (size_t i = 0; i < n; ++i)
      for (size_t p : w.predecessors(i)) succ[p].push_back(i);
    const auto cycle = find_cycle(succ);
    if (!cycle.empty()) {
      std::string text;
      for (size_t v : cycle) text += w.kernels_[v].name + " -> ";
      text += w.kernels_[cycle.front()].name;
      throw InputError(w.where(cycle.front()), "after", "dependency cycle: " + text);
    }
  }
  return w;
}

const DependencyGraph& Workload::graph() const {
  std::call_once(graph_->once, [this] {
    graph_->graph = DependencyGraph(kernels_.size());
    for (size_t v = 0; v < kernels_.size(); ++v)
      for (size_t p : predecessors(v)) boost::add_edge(p, v, graph_->graph);
  });
  return graph_->graph;
}

Workload Workload::with_host_speed(double speed) const {
  Workload w = *this;
  for (auto& k : w.kernels_) {
    if (k.host_delay_us) *k.host_delay_us /= speed;
    if (k.host_sync_at_us) *k.host_sync_at_us /= speed;
  }
  if (w.host_tail_us_) *w.host_tail_us_ /= speed;
  return w;
}

bool Workload::replays_host() const {
  return std::any_of(kernels_.begin(), kernels_.end(),
                     [](const Kernel& k) { return k.host_delay_us.has_value(); });
}

}  // namespace gpucast::wl
