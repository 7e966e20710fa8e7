#pragma once
// A small JSON Schema checker for the documented output schemas (docs/schemas/): type, required,
// properties, additionalProperties, items, enum, minimum and local $ref into $defs. Enough to hold
// gpucast's outputs to their documentation; not a general validator.
#include <string>
#include <vector>

#include "reports/json.h"

namespace gpucast::test {

// Every place `doc` breaks `schema`, as "path: reason"; empty when it conforms.
[[nodiscard]] std::vector<std::string> schema_violations(const reports::Json& doc, const reports::Json& schema);

// Reads docs/schemas/<name>.schema.json from the source tree.
[[nodiscard]] reports::Json load_schema(const std::string& name);

}  // namespace gpucast::test
