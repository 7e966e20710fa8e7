#pragma once
// What kind of evidence stands behind a catalog figure: a vendor datasheet, a measurement, an
// assumption, or a value derived from others. A source text may say so explicitly with a prefix
// ("datasheet: ...", "measured: ...", "assumed: ..."); otherwise its wording decides (see
// classify_source). `hw show` prints the kind beside every value.
#include <optional>
#include <string>
#include <string_view>

#include "hardware/gpu_spec.h"

namespace gpucast::hw {

enum class SourceKind { datasheet, measurement, assumption, derived, unsourced };

[[nodiscard]] std::string_view to_string(SourceKind kind);

// Explicit prefix first (datasheet:, spec:, measured:, measurement:, assumed:, assumption:,
// estimate:); else "assum"/"estimat"/"unverified"/"unconfirmed" anywhere -> assumption; else
// "calibrat"/"measur"/"pointer chase"/"pointer-chase"/"benchmark"/"probe" -> measurement; else
// datasheet (a document the figure was read from).
[[nodiscard]] SourceKind classify_source(std::string_view text);

struct KeySource {
  std::string text;  // the source text that covers the key ("" for derived values)
  SourceKind kind = SourceKind::unsourced;
};

// The source of one resolved key: derived values are `derived`; otherwise the most specific entry
// of gpu.sources covering `path` (the key itself, then its sections).
[[nodiscard]] KeySource source_of(const GpuSpec& gpu, const std::string& path);

}  // namespace gpucast::hw
