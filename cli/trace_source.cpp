#include "cli/trace_source.h"

#include <cctype>
#include <cmath>
#include <set>

#include "common/errors.h"
#include "workloads/trace/kineto_trace.h"

namespace gpucast::cli {
namespace {

std::set<std::string> tokens(const std::string& name) {
  std::set<std::string> out;
  std::string cur;
  for (char c : name + " ") {
    if (std::isalnum(static_cast<unsigned char>(c))) {
      cur += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    } else if (!cur.empty()) {
      if (cur != "nvidia" && cur != "geforce" && cur != "tesla") out.insert(cur);
      cur.clear();
    }
  }
  return out;
}

bool has_digit(const std::string& s) {
  for (char c : s)
    if (std::isdigit(static_cast<unsigned char>(c))) return true;
  return false;
}

}  // namespace

std::string match_source_gpu(const trace::KinetoTrace& t, const hw::Catalog& catalog) {
  if (t.devices.empty())
    throw InputError(SourceLocation{t.origin}, "deviceProperties",
                     "the trace has no deviceProperties, so its GPU is unknown: pass --source-gpu ID");
  const auto& d = t.devices.front();
  const auto want = tokens(d.name);
  std::string best;
  int best_score = 0;
  for (const auto& id : catalog.ids()) {
    hw::GpuSpec g;
    try {
      g = catalog.load(id);
    } catch (const Error&) {
      continue;
    }
    int score = 0;
    bool model = false;
    for (const auto& tok : tokens(g.name))
      if (want.count(tok)) {
        score += 1;
        model = model || (has_digit(tok) && tok.find("gb") == std::string::npos);
      }
    if (!model) continue;
    if (d.sm_count > 0) score += g.sm.count == d.sm_count ? 3 : -3;
    if (d.memory_gb > 0) score += std::fabs(g.memory.capacity_gb - d.memory_gb) <= 0.12 * g.memory.capacity_gb ? 2 : -2;
    if (score > best_score) {
      best_score = score;
      best = id;
    }
  }
  if (best.empty() || best_score < 3)
    throw InputError(SourceLocation{t.origin}, "deviceProperties",
                     "no catalog GPU matches the trace's device '" + d.name + "' (" + std::to_string(d.sm_count) +
                         " SMs, " + std::to_string(static_cast<int>(std::lround(d.memory_gb))) +
                         " GB): pass --source-gpu ID (gpucast hw list)");
  return best;
}

std::shared_ptr<trace::TraceImport> import_trace_file(const TraceSourceOptions& o, const hw::Catalog& catalog) {
  auto t = trace::read_kineto_trace(o.file);
  const auto window = trace::select_step(t, o.step);
  const std::string source_id = o.source_gpu.empty() ? match_source_gpu(t, catalog) : o.source_gpu;
  const auto source = catalog.load(source_id);
  std::string name = std::filesystem::path(o.file).filename().string();
  for (const char* ext : {".gz", ".json"})
    if (name.size() > std::string(ext).size() && name.compare(name.size() - std::string(ext).size(), std::string::npos, ext) == 0)
      name.resize(name.size() - std::string(ext).size());
  return std::make_shared<trace::TraceImport>(trace::import_trace(t, window, source, name));
}

}  // namespace gpucast::cli
