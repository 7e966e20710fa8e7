#include "hardware/source_kind.h"

#include <algorithm>
#include <cctype>

namespace gpucast::hw {
namespace {
std::string lower(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::tolower(c); });
  return out;
}
bool has(const std::string& text, std::string_view word) {
  return text.find(word) != std::string::npos;
}
}  // namespace

std::string_view to_string(SourceKind kind) {
  switch (kind) {
    case SourceKind::datasheet:
      return "datasheet";
    case SourceKind::measurement:
      return "measurement";
    case SourceKind::assumption:
      return "assumption";
    case SourceKind::derived:
      return "derived";
    default:
      return "unsourced";
  }
}

SourceKind classify_source(std::string_view text) {
  const std::string t = lower(text);
  const auto starts = [&](std::string_view p) { return t.rfind(p, 0) == 0; };
  if (starts("datasheet:") || starts("spec:")) return SourceKind::datasheet;
  if (starts("measured:") || starts("measurement:")) return SourceKind::measurement;
  if (starts("assumed:") || starts("assumption:") || starts("estimate:")) return SourceKind::assumption;
  if (has(t, "assum") || has(t, "estimat") || has(t, "unverified") || has(t, "unconfirmed"))
    return SourceKind::assumption;
  if (has(t, "calibrat") || has(t, "measur") || has(t, "pointer chase") || has(t, "pointer-chase") ||
      has(t, "benchmark") || has(t, "probe"))
    return SourceKind::measurement;
  return SourceKind::datasheet;
}

KeySource source_of(const GpuSpec& gpu, const std::string& path) {
  if (auto it = gpu.values.find(path);
      it != gpu.values.end() && it->second.where.file.rfind("derived:", 0) == 0)
    return {it->second.where.file.substr(8), SourceKind::derived};
  std::string prefix = path;
  while (true) {
    if (auto it = gpu.sources.find(prefix); it != gpu.sources.end())
      return {it->second, classify_source(it->second)};
    const auto dot = prefix.rfind('.');
    if (dot == std::string::npos) return {};
    prefix = prefix.substr(0, dot);
  }
}

}  // namespace gpucast::hw
