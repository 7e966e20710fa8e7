#include "reports/vega.h"

namespace gpucast::reports::vega {

Json obj(std::initializer_list<Field> fields) {
  Json j = Json::object();
  for (const auto& [k, v] : fields) j.set(k, v);
  return j;
}

Json arr(std::initializer_list<Json> items) {
  Json j = Json::array();
  for (const auto& v : items) j.push(v);
  return j;
}

Json axis_field(const std::string& field, const std::string& type, const std::string& title, bool log) {
  Json j = obj({{"field", field}, {"type", type}, {"title", title}});
  if (log) j.set("scale", obj({{"type", "log"}}));
  return j;
}

Json spec(const std::string& description, Json data_values, int width, int height) {
  return obj({{"$schema", "https://vega.github.io/schema/vega-lite/v6.json"},
              {"description", description},
              {"width", width},
              {"height", height},
              {"data", obj({{"values", std::move(data_values)}})},
              {"config", obj({{"font", "system-ui, sans-serif"},
                              {"axis", obj({{"labelFontSize", 11}, {"titleFontSize", 12}})},
                              {"legend", obj({{"labelFontSize", 11}, {"titleFontSize", 12}})}})}});
}

Json bound_color(const std::string& field) {
  return obj({{"field", field},
              {"type", "nominal"},
              {"title", "bound"},
              {"scale", obj({{"domain", arr({"compute", "memory", "latency", "launch", "host"})},
                             {"range", arr({"#d62728", "#1f77b4", "#9467bd", "#ff7f0e", "#7f7f7f"})}})}});
}

}  // namespace gpucast::reports::vega
