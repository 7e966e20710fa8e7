#pragma once
// Small helpers for writing Vega-Lite specifications with reports::Json: objects from brace lists,
// arrays of rows, and the shared look of gpucast's charts.
#include <initializer_list>
#include <string>
#include <utility>

#include "reports/json.h"

namespace gpucast::reports::vega {

using Field = std::pair<std::string, Json>;

[[nodiscard]] Json obj(std::initializer_list<Field> fields);
[[nodiscard]] Json arr(std::initializer_list<Json> items);

// {"field": f, "type": t, "title": title}, with a log scale when `log`.
[[nodiscard]] Json axis_field(const std::string& field, const std::string& type, const std::string& title,
                              bool log = false);

// A top-level specification: schema, width, height, data values, and the given layers/encoding.
[[nodiscard]] Json spec(const std::string& description, Json data_values, int width = 640, int height = 320);

// The colors every chart uses for bounds, so that "memory" is the same blue everywhere.
[[nodiscard]] Json bound_color(const std::string& field = "bound");

}  // namespace gpucast::reports::vega
