#include "workloads/workload_file.h"

#include <cmath>
#include <sstream>

#include "common/huge_pages.h"
#include "common/suggest.h"
#include "common/toml_source.h"
#include "workloads/op_params.h"

namespace gpucast::wl {
namespace {

constexpr size_t kMaxNameBytes = 4096;

const std::vector<std::string> kCommonKeys{
    "name", "op", "after", "stream", "input_from_back", "host_delay_us", "host_sync_at_us", "host", "sync"};

// `host = { op_dispatch = 1, launch = 1 }`: the host work that issues the kernel, counts per host
// category (workloads/host_work.h), priced by the host description.
HostWork read_host_work(const toml::node& node, const std::string& file) {
  const auto* table = node.as_table();
  if (!table)
    throw InputError(location_of(node, file), "host",
                     "expected a table of host-category counts, e.g. host = { op_dispatch = 1, launch = 1 }");
  std::vector<std::string> ids;
  for (size_t i = 0; i < kHostCategories; ++i) ids.emplace_back(host_category_id(HostCategory(i)));
  HostWork h;
  for (auto&& [key, value] : *table) {
    const std::string id(key.str());
    const auto c = parse_host_category(id);
    if (!c)
      throw InputError(location_of(key, file), "host." + id, "unknown host category" + did_you_mean(id, ids));
    const auto v = value.value<double>();
    if (!v || !std::isfinite(*v) || *v < 0 || *v > 1e9)
      throw InputError(location_of(value, file), "host." + id, "expected a count >= 0");
    h.set(*c, *v);
  }
  return h;
}

std::vector<std::string> allowed_keys(const OpDef& def) {
  std::vector<std::string> keys = kCommonKeys;
  for (const auto& p : def.params) keys.emplace_back(p.name);
  return keys;
}

// A parameter keeps its line and column only; build_op names the kernel's file in its errors.
SourceLocation position_of(const toml::node& node) {
  const auto& begin = node.source().begin;
  return SourceLocation{{}, static_cast<int>(begin.line), static_cast<int>(begin.column)};
}

ParamValue convert_param(const ParamDef& def, const toml::node& node, const std::string& file) {
  // Built only when an error needs it: a file name per parameter cost a tenth of a load.
  const auto where = [&] { return location_of(node, file); };
  const std::string_view name = def.name;
  switch (def.kind) {
    case ParamKind::integer:
      if (node.is_integer()) return {node.as_integer()->get()};
      if (node.is_floating_point()) {
        const double v = node.as_floating_point()->get();
        if (std::isfinite(v) && v == std::floor(v) && std::fabs(v) < 9e18)
          return {static_cast<std::int64_t>(v)};
      }
      throw InputError(where(), std::string(name), "expected an integer, found " + describe_type(node));
    case ParamKind::number:
      if (node.is_integer()) return {static_cast<double>(node.as_integer()->get())};
      if (node.is_floating_point()) return {node.as_floating_point()->get()};
      throw InputError(where(), std::string(name), "expected a number, found " + describe_type(node));
    case ParamKind::boolean:
      if (node.is_boolean()) return {node.as_boolean()->get()};
      throw InputError(where(), std::string(name), "expected true or false, found " + describe_type(node));
    case ParamKind::dtype: {
      if (!node.is_string())
        throw InputError(where(), std::string(name),
                         "expected a data type string, found " + describe_type(node));
      const std::string text = node.as_string()->get();
      if (!parse_dtype(text)) {
        std::vector<std::string> choices;
        for (auto t : {DataType::fp64, DataType::fp32, DataType::tf32, DataType::fp16, DataType::bf16,
                       DataType::fp8, DataType::int8, DataType::fp6, DataType::fp4})
          choices.emplace_back(to_string(t));
        throw InputError(
            where(), std::string(name),
            "unknown data type '" + text + "'" + did_you_mean(text, choices) + "; one of " + dtype_choices());
      }
      return {text};
    }
    case ParamKind::text:
      if (!node.is_string())
        throw InputError(where(), std::string(name), "expected a string, found " + describe_type(node));
      return {node.as_string()->get()};
    case ParamKind::choice: {
      if (!node.is_string())
        throw InputError(where(), std::string(name), "expected a string, found " + describe_type(node));
      const std::string& text = node.as_string()->get();
      if (std::find(def.choices.begin(), def.choices.end(), text) == def.choices.end()) {
        const std::vector<std::string> choices(def.choices.begin(), def.choices.end());
        std::string list;
        for (const auto& c : choices) list += (list.empty() ? "" : ", ") + c;
        throw InputError(where(), std::string(name),
                         "'" + text + "' is not one of " + list + did_you_mean(text, choices));
      }
      return {text};
    }
  }
  throw InputError(where(), std::string(name), "unsupported parameter kind");
}

// `params` is scratch storage reused from kernel to kernel (cleared here).
Kernel read_kernel(const toml::table& table, size_t index, const std::string& file, ParamMap& params) {
  Kernel k;
  const SourceLocation kernel_at = location_of(table, file);
  k.position = {kernel_at.line, kernel_at.column};
  const toml::node* op_node = table.get("op");
  if (!op_node) throw InputError(kernel_at, "op", "kernel #" + std::to_string(index + 1) + " has no 'op'");
  if (!op_node->is_string())
    throw InputError(location_of(*op_node, file), "op",
                     "expected a string, found " + describe_type(*op_node));
  const std::string op = op_node->as_string()->get();
  const OpDef* def = find_op_def(op);
  if (!def)
    throw InputError(location_of(*op_node, file), "op",
                     "unknown op '" + op + "'" + did_you_mean(op, op_names()) +
                         "; ops: gemm, attention, conv2d, "
                         "elementwise, reduce, softmax, layernorm, rmsnorm, embedding, copy, custom, "
                         "all_reduce, all_gather, "
                         "reduce_scatter, all_to_all, broadcast, send, recv, traced");

  params.clear();
  for (auto&& entry : table) {
    // Named references, not a structured binding: the lambda below captures the key, which C++17
    // allows for references but not for structured bindings (clang rejects it).
    const toml::key& key = entry.first;
    const toml::node& node = entry.second;
    const std::string_view name = key.str();
    if (name == "op") continue;
    // The key's position, only when an error needs it (a file path per key cost a tenth of a load).
    const auto where = [&] { return location_of(key, file); };
    if (name == "name") {
      if (!node.is_string())
        throw InputError(where(), std::string(name), "expected a string, found " + describe_type(node));
      k.name = node.as_string()->get();
      if (k.name.empty()) throw InputError(where(), std::string(name), "kernel name must not be empty");
      if (k.name.size() > kMaxNameBytes)
        throw InputError(where(), std::string(name),
                         "kernel name is longer than " + std::to_string(kMaxNameBytes) + " bytes");
      continue;
    }
    if (name == "stream") {
      if (!node.is_integer() || node.as_integer()->get() < 0 || node.as_integer()->get() > kMaxStream)
        throw InputError(where(), std::string(name),
                         "expected a stream id, an integer in [0, " + std::to_string(kMaxStream) + "]");
      k.stream = static_cast<int>(node.as_integer()->get());
      continue;
    }
    if (name == "input_from_back") {
      if (!node.is_integer() || node.as_integer()->get() < 1 || node.as_integer()->get() > kMaxInputFromBack)
        throw InputError(where(), std::string(name),
                         "expected how many kernels back on its stream wrote its input, an integer in [1, " +
                             std::to_string(kMaxInputFromBack) + "]");
      k.input_from_back = static_cast<int>(node.as_integer()->get());
      continue;
    }
    if (name == "host_delay_us" || name == "host_sync_at_us") {
      const auto v = node.value<double>();
      if (!v || !std::isfinite(*v) || *v < 0 || *v > 1e9)
        throw InputError(where(), std::string(name), "expected a number in [0, 1e9] (microseconds)");
      (name == "host_delay_us" ? k.host_delay_us : k.host_sync_at_us) = *v;
      continue;
    }
    if (name == "host") {
      k.host = read_host_work(node, file);
      continue;
    }
    if (name == "sync") {
      if (!node.is_boolean())
        throw InputError(where(), std::string(name), "expected true or false, found " + describe_type(node));
      k.sync = node.as_boolean()->get();
      continue;
    }
    if (name == "after") {
      const auto* array = node.as_array();
      if (!array)
        throw InputError(where(), std::string(name),
                         "expected an array of kernel names, e.g. after = [\"qkv\"]");
      for (const auto& element : *array) {
        if (!element.is_string())
          throw InputError(location_of(element, file), std::string(name), "expected kernel names (strings)");
        k.after.push_back(element.as_string()->get());
      }
      continue;
    }
    const ParamDef* param = nullptr;
    for (const auto& p : def->params)
      if (p.name == name) param = &p;
    if (!param)
      throw InputError(
          where(), std::string(name),
          "unknown parameter for op '" + op + "'" + did_you_mean(std::string(name), allowed_keys(*def)));
    params.emplace(name, LocatedParam{convert_param(*param, node, file), position_of(node)});
  }
  if (k.name.empty()) k.name = op + "_" + std::to_string(index);  // unnamed kernels: "gemm_12"
  for (const auto& p : def->params)
    if (p.required && !params.count(p.name))
      throw InputError(kernel_at, std::string(p.name),
                       "kernel '" + k.name + "' (op " + op + ") is missing required parameter '" +
                           std::string(p.name) + "'");
  if (k.host_sync_at_us && (!k.host_delay_us || *k.host_sync_at_us > *k.host_delay_us))
    throw InputError(kernel_at, "host_sync_at_us",
                     "kernel '" + k.name + "': host_sync_at_us needs host_delay_us and must not exceed it");
  k.op = build_op(op, params, k.name, kernel_at);
  return k;
}

Workload read_table(const toml::table& root, const std::string& file) {
  std::string name;
  LaunchMode launch = LaunchMode::eager;
  std::optional<double> host_launch_us;
  std::optional<double> host_tail_us;
  for (auto&& [key, node] : root) {
    const std::string k(key.str());
    if (k != "workload" && k != "kernel")
      throw InputError(
          location_of(key, file), k,
          "unknown key" + did_you_mean(k, {"workload", "kernel"}) + "; expected [workload] and [[kernel]]");
  }
  if (const auto* wnode = root.get("workload")) {
    const auto* wt = wnode->as_table();
    if (!wt) throw InputError(location_of(*wnode, file), "workload", "expected a table [workload]");
    for (auto&& [key, node] : *wt) {
      const std::string k(key.str());
      const SourceLocation where = location_of(key, file);
      if (k == "name" || k == "description") {
        if (!node.is_string()) throw InputError(where, "workload." + k, "expected a string");
        if (k == "name") name = node.as_string()->get();
      } else if (k == "launch") {
        const std::string mode = node.is_string() ? node.as_string()->get() : "";
        if (mode != "eager" && mode != "graph")
          throw InputError(location_of(node, file), "workload.launch",
                           "expected \"eager\" or \"graph\"" + did_you_mean(mode, {"eager", "graph"}));
        launch = mode == "graph" ? LaunchMode::graph : LaunchMode::eager;
      } else if (k == "host_launch_us") {
        const auto v = node.value<double>();
        if (!v || !std::isfinite(*v) || !(*v > 0) || *v > 1e6)
          throw InputError(location_of(node, file), "workload.host_launch_us",
                           "expected a number in (0, 1000000] microseconds");
        host_launch_us = *v;
      } else if (k == "host_tail_us") {
        const auto v = node.value<double>();
        if (!v || !std::isfinite(*v) || *v < 0)
          throw InputError(location_of(node, file), "workload.host_tail_us",
                           "expected a number >= 0 (microseconds)");
        host_tail_us = *v;
      } else {
        throw InputError(where, "workload." + k,
                         "unknown key" + did_you_mean(k, {"name", "launch", "host_launch_us", "host_tail_us",
                                                          "description"}));
      }
    }
  }
  if (name.empty()) name = std::filesystem::path(file).stem().string();

  std::vector<Kernel> kernels;
  if (const auto* knode = root.get("kernel")) {
    const auto* array = knode->as_array();
    if (!array || (!array->empty() && !array->is_array_of_tables()))
      throw InputError(location_of(*knode, file), "kernel", "expected [[kernel]] entries");
    reserve_large(kernels, array->size());
    ParamMap scratch;
    for (size_t i = 0; i < array->size(); ++i)
      kernels.push_back(read_kernel(*array->get(i)->as_table(), i, file, scratch));
  }
  if (kernels.empty())
    throw InputError(SourceLocation{file}, "kernel", "the workload has no [[kernel]] entries");
  auto w = Workload::build(name, launch, std::move(kernels), host_launch_us, file);
  if (host_tail_us) return std::move(w).with_host_tail_us(*host_tail_us);
  return w;  // moved, not copied (a conditional expression here copied every kernel)
}

std::string toml_string(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

std::string toml_value(const ParamValue& v) {
  if (auto* i = std::get_if<std::int64_t>(&v)) return std::to_string(*i);
  if (auto* d = std::get_if<double>(&v)) {
    std::ostringstream s;
    s.precision(17);
    s << *d;
    std::string text = s.str();
    if (text.find_first_of(".eEn") == std::string::npos) text += ".0";
    return text;
  }
  if (auto* b = std::get_if<bool>(&v)) return *b ? "true" : "false";
  return toml_string(std::get<std::string>(v));
}

}  // namespace

Workload read_workload_table(const toml::table& root, const std::string& origin) {
  return read_table(root, origin);
}

Workload read_workload_text(const std::string& text, const std::string& origin) {
  return read_table(parse_toml_text(text, origin), origin);
}

Workload read_workload_file(const std::filesystem::path& path) {
  return read_table(parse_toml_file(path), path.string());
}

std::string write_workload(const Workload& w) {
  std::ostringstream out;
  out << "[workload]\nname = " << toml_string(w.name()) << "\nlaunch = \"" << launch_mode_name(w.launch())
      << "\"\n";
  if (w.host_launch_us()) out << "host_launch_us = " << toml_value(ParamValue{*w.host_launch_us()}) << "\n";
  if (w.host_tail_us()) out << "host_tail_us = " << toml_value(ParamValue{*w.host_tail_us()}) << "\n";
  for (const auto& k : w.kernels()) {
    out << "\n[[kernel]]\nname = " << toml_string(k.name) << "\nop = \"" << op_name(k.op) << "\"\n";
    for (const auto& [key, value] : op_params(k.op)) out << key << " = " << toml_value(value) << "\n";
    if (k.stream != 0) out << "stream = " << k.stream << "\n";
    if (k.input_from_back != 0) out << "input_from_back = " << k.input_from_back << "\n";
    if (k.host_delay_us) out << "host_delay_us = " << toml_value(ParamValue{*k.host_delay_us}) << "\n";
    if (k.host_sync_at_us) out << "host_sync_at_us = " << toml_value(ParamValue{*k.host_sync_at_us}) << "\n";
    if (!k.host.empty()) {
      out << "host = {";
      const char* sep = " ";
      for (size_t i = 0; i < kHostCategories; ++i) {
        const double count = k.host[HostCategory(i)];
        if (count == 0) continue;
        out << sep << host_category_id(HostCategory(i)) << " = " << toml_value(ParamValue{count});
        sep = ", ";
      }
      out << " }\n";
    }
    if (k.sync) out << "sync = true\n";
    if (!k.after.empty()) {
      out << "after = [";
      for (size_t i = 0; i < k.after.size(); ++i) out << (i ? ", " : "") << toml_string(k.after[i]);
      out << "]\n";
    }
  }
  return out.str();
}

}  // namespace gpucast::wl
