#include "calibration/case_variant.h"

namespace gpucast::calib {
namespace {
constexpr const char* kLayoutPrefix = "layout=";
}  // namespace

void apply_case_variant(const std::string& op, const std::string& variant, wl::ParamMap& params,
                        const SourceLocation& where) {
  const std::string prefix = kLayoutPrefix;
  if (op != "gemm" || variant.rfind(prefix, 0) != 0) return;
  const std::string layout = variant.substr(prefix.size());
  auto flag = [&](char c) {
    if (c != 'n' && c != 't')
      throw InputError(where, "variant",
                       "'" + variant + "': a GEMM layout is two of n/t (layout=nt: B stored transposed)");
    return c == 't';
  };
  if (layout.size() != 2) flag('?');
  const std::pair<const char*, bool> wanted[] = {{"transpose_a", flag(layout[0])},
                                                 {"transpose_b", flag(layout[1])}};
  for (const auto& [key, value] : wanted) {
    const auto it = params.find(key);
    if (it == params.end()) {
      params[key] = wl::LocatedParam{value, where};
      continue;
    }
    const bool* given = std::get_if<bool>(&it->second.value);
    if (!given || *given != value)
      throw InputError(where, "variant", "'" + variant + "' contradicts the case's " + key);
  }
}

}  // namespace gpucast::calib
