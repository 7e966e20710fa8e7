#include "reports/hardware_report.h"

#include "hardware/key_schema.h"
#include "hardware/source_kind.h"
#include "reports/prediction_charts.h"
#include "reports/units.h"
#include "reports/vega.h"

namespace gpucast::reports {
namespace {

Json scalar_json(const Scalar& v) {
  if (auto* b = std::get_if<bool>(&v)) return Json(*b);
  if (auto* i = std::get_if<std::int64_t>(&v)) return Json(static_cast<long long>(*i));
  if (auto* d = std::get_if<double>(&v)) return Json(*d);
  return Json(std::get<std::string>(v));
}

// Inserts `value` at a dotted path, creating nested objects in first-seen order.
void set_path(Json& root, const std::string& path, Json value) {
  const auto dot = path.find('.');
  if (dot == std::string::npos) {
    root.set(path, std::move(value));
    return;
  }
  const std::string head = path.substr(0, dot);
  Json child = root.get(head) ? *root.get(head) : Json::object();
  set_path(child, path.substr(dot + 1), std::move(value));
  root.set(head, std::move(child));
}

std::string source_text(const SourceLocation& where, const std::string& origin) {
  if (where.file == origin && where.has_position()) return "line " + std::to_string(where.line);
  if (where.has_position()) return where.str();
  return where.file;
}

std::string bf16_cell(const hw::GpuSpec& gpu) {
  if (gpu.has_tensor(DataType::bf16)) return sig3(gpu.tensor_tflops(DataType::bf16));
  if (gpu.has_tensor(DataType::fp16)) return sig3(gpu.tensor_tflops(DataType::fp16)) + " (fp16)";
  return "-";
}

}  // namespace

Table hardware_list_table(const std::vector<hw::GpuSpec>& gpus) {
  Table table({{"id"},
               {"vendor"},
               {"architecture"},
               {"SMs", Align::right},
               {"memory", Align::right},
               {"bandwidth", Align::right},
               {"BF16 dense TFLOP/s", Align::right},
               {"TDP", Align::right},
               {"price", Align::right}});
  for (const auto& g : gpus) {
    table.add_row({g.id, g.vendor, g.architecture, std::to_string(g.sm.count), sig3(g.memory.capacity_gb) + " GB " + g.memory.type,
                   bandwidth(g.memory.bandwidth_gbps), bf16_cell(g), fixed(g.power.tdp_w, 0) + " W",
                   usd(g.price.usd) + (g.price.kind.empty() ? "" : " (" + g.price.kind + ")")});
  }
  return table;
}

Json hardware_list_json(const std::vector<hw::GpuSpec>& gpus) {
  Json out = Json::array();
  for (const auto& g : gpus) {
    Json row = Json::object();
    row.set("id", g.id);
    row.set("name", g.name);
    row.set("vendor", g.vendor);
    row.set("architecture", g.architecture);
    row.set("sm_count", g.sm.count);
    row.set("memory_capacity_gb", g.memory.capacity_gb);
    row.set("memory_type", g.memory.type);
    row.set("memory_bandwidth_gbps", g.memory.bandwidth_gbps);
    row.set("bf16_tflops", g.has_tensor(DataType::bf16) ? Json(g.tensor_tflops(DataType::bf16)) : Json());
    row.set("tdp_w", g.power.tdp_w);
    row.set("price_usd", g.price.usd);
    out.push(std::move(row));
  }
  return out;
}

Table hardware_detail_table(const hw::GpuSpec& gpu) {
  // "kind": whether the figure is a datasheet value, a measurement, an assumption or derived
  // from others (hardware/source_kind.h), so a reader sees which numbers to trust.
  Table table({{"key"}, {"value", Align::right}, {"unit"}, {"kind"}, {"from"}});
  for (const auto& def : hw::gpu_keys()) {
    const std::string path(def.path);
    auto it = gpu.values.find(path);
    if (it == gpu.values.end()) continue;
    const auto source = hw::source_of(gpu, path);
    std::string kind(hw::to_string(source.kind));
    if (source.kind == hw::SourceKind::unsourced && def.kind == hw::ValueKind::string) kind.clear();
    // A price read from a public price list is "published", not a datasheet figure.
    if (path.rfind("price.", 0) == 0 && source.kind == hw::SourceKind::datasheet) kind = "published";
    table.add_row({path, scalar_to_string(it->second.value), std::string(def.unit), kind,
                   source_text(it->second.where, gpu.origin)});
  }
  for (size_t i = 0; i < gpu.cloud.size(); ++i) {
    const auto& c = gpu.cloud[i];
    table.add_row({"cloud[" + std::to_string(i) + "]",
                   c.provider + " " + c.instance + " x" + std::to_string(c.gpus) + " " + usd(c.usd_per_hour) + "/h",
                   "USD/h",
                   c.source.empty() ? "unsourced"
                   : hw::classify_source(c.source) == hw::SourceKind::datasheet
                       ? "published"
                       : std::string(hw::to_string(hw::classify_source(c.source))),
                   c.date});
  }
  return table;
}

Json hardware_to_json(const hw::GpuSpec& gpu) {
  Json root = Json::object();
  root.set("id", gpu.id);
  for (const auto& def : hw::gpu_keys()) {
    auto it = gpu.values.find(std::string(def.path));
    if (it == gpu.values.end()) continue;
    set_path(root, std::string(def.path), scalar_json(it->second.value));
  }
  Json cloud = Json::array();
  for (const auto& c : gpu.cloud) {
    Json entry = Json::object();
    entry.set("provider", c.provider);
    entry.set("instance", c.instance);
    entry.set("gpus", c.gpus);
    entry.set("usd_per_hour", c.usd_per_hour);
    if (c.spot_usd_per_hour) entry.set("spot_usd_per_hour", *c.spot_usd_per_hour);
    if (!c.region.empty()) entry.set("region", c.region);
    if (!c.date.empty()) entry.set("date", c.date);
    if (!c.source.empty()) entry.set("source", c.source);
    cloud.push(std::move(entry));
  }
  root.set("cloud", std::move(cloud));
  Json sources = Json::object();
  for (const auto& [k, v] : gpu.sources) sources.set(k, v);
  root.set("sources", std::move(sources));
  Json kinds = Json::object();
  for (const auto& def : hw::gpu_keys())
    if (gpu.values.count(std::string(def.path)))
      kinds.set(std::string(def.path), std::string(hw::to_string(hw::source_of(gpu, std::string(def.path)).kind)));
  root.set("source_kinds", std::move(kinds));
  return root;
}

Report hardware_list_report(const std::vector<hw::GpuSpec>& gpus) {
  using vega::obj;
  Report r;
  r.title = "GPU catalog: " + std::to_string(gpus.size()) + " GPUs";
  r.sections.push_back({"", "", hardware_list_table(gpus)});
  Table csv({{"id"}, {"name"}, {"vendor"}, {"architecture"}, {"sm_count"}, {"memory_capacity_gb"}, {"memory_type"},
             {"memory_bandwidth_gbps"}, {"l2_mb"}, {"bf16_tflops"}, {"fp8_tflops"}, {"fp32_tflops"}, {"tdp_w"},
             {"price_usd"}, {"price_kind"}, {"price_date"}});
  Json points = Json::array();
  auto rate = [](const hw::GpuSpec& g, DataType t) { return g.has_tensor(t) ? format_number(g.tensor_tflops(t)) : ""; };
  for (const auto& g : gpus) {
    csv.add_row({g.id, g.name, g.vendor, g.architecture, std::to_string(g.sm.count), format_number(g.memory.capacity_gb),
                 g.memory.type, format_number(g.memory.bandwidth_gbps), format_number(g.cache.l2_mb),
                 rate(g, DataType::bf16), rate(g, DataType::fp8), format_number(g.compute.fp32_tflops),
                 format_number(g.power.tdp_w), format_number(g.price.usd), g.price.kind, g.price.date});
    const double tf = g.has_tensor(DataType::bf16) ? g.tensor_tflops(DataType::bf16)
                      : g.has_tensor(DataType::fp16) ? g.tensor_tflops(DataType::fp16)
                                                     : g.compute.fp32_tflops;
    points.push(obj({{"gpu", g.id}, {"architecture", g.architecture}, {"bandwidth_gbps", g.memory.bandwidth_gbps},
                     {"tflops", tf}, {"memory_gb", g.memory.capacity_gb}, {"price", usd(g.price.usd)}}));
  }
  r.csv = csv;
  r.json = hardware_list_json(gpus);
  const Json x = obj({{"field", "bandwidth_gbps"}, {"type", "quantitative"}, {"title", "DRAM bandwidth (GB/s, log)"},
                      {"scale", obj({{"type", "log"}})}});
  const Json y = obj({{"field", "tflops"}, {"type", "quantitative"}, {"title", "dense BF16 tensor TFLOP/s (log)"},
                      {"scale", obj({{"type", "log"}})}});
  Json layers = Json::array();
  layers.push(obj({{"mark", obj({{"type", "point"}, {"filled", true}})},
                   {"encoding", obj({{"x", x}, {"y", y},
                                     {"color", obj({{"field", "architecture"}, {"type", "nominal"}})},
                                     {"size", obj({{"field", "memory_gb"}, {"type", "quantitative"}, {"title", "memory (GB)"}})},
                                     {"tooltip", Json(Json::Array{obj({{"field", "gpu"}}), obj({{"field", "bandwidth_gbps"}}),
                                                                  obj({{"field", "tflops"}}), obj({{"field", "memory_gb"}}),
                                                                  obj({{"field", "price"}})})}})}}));
  layers.push(obj({{"mark", obj({{"type", "text"}, {"align", "left"}, {"dx", 7}, {"fontSize", 10}})},
                   {"encoding", obj({{"x", x}, {"y", y}, {"text", obj({{"field", "gpu"}})}})}}));
  Json spec = vega::spec("catalog", points, 640, 420);
  spec.set("layer", layers);
  r.charts.push_back({"catalog", "Bandwidth against compute",
                      "Each GPU by DRAM bandwidth and dense BF16 tensor rate (FP16 where BF16 is missing, FP32 "
                      "otherwise); the area is the memory capacity. GPUs to the right serve memory-bound work "
                      "(decode, elementwise) better, GPUs higher up compute-bound work (large GEMMs, prefill).",
                      spec});
  return r;
}

Report hardware_detail_report(const hw::GpuSpec& gpu) {
  Report r;
  r.title = gpu.name + " (" + gpu.id + ", " + gpu.origin + ")";
  r.sections.push_back({"", "", hardware_detail_table(gpu)});
  r.csv = hardware_detail_table(gpu);
  r.json = hardware_to_json(gpu);
  r.charts.push_back(roofline_chart(gpu, nullptr, "roofline"));
  for (const auto& [k, v] : gpu.sources) r.inputs.emplace_back("source: " + k, v);
  return r;
}

}  // namespace gpucast::reports
